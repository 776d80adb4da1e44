#!/usr/bin/env python3
"""The plumbing of the realbugs benchmark: venvs, buggy and fixed trees, and derived facts.

`smallfix bench --realbugs` calls `tree` and `python`; people call `setup` (through
scripts/realbugs.sh) and `facts`. Standard library only, so any Python 3.11 runs it.

  realbugs.py setup  [--bug ID]... [--project P]... [--env E]...   make the pinned venvs
  realbugs.py python --env E                                       print a venv's interpreter
  realbugs.py tree   --bug ID --side buggy|fixed --dest DIR [--from auto|git|pypi] [--mirror-root DIR]
  realbugs.py facts  [--mirror-root DIR] [--pypi] [--staging]      derive facts into bugs.jsonl

A tree is the fix commit's tree (so the fix's tests are there), with the fix's non-test files
put back to the parent's text on the buggy side. It comes from a fetched history
(MIRROR_ROOT/OWNER+NAME/repo, a git directory) or, with none at hand, from PyPI: the source
distribution of the first release with the fix, with the fix's files taken from the last
release without it. Every file the fix touches is checked against the sha256 recorded in
bugs.jsonl, so a tree from PyPI holds the same text as the history's at those paths.
The tree is made a one-commit git repository, as the repair engine validates in worktrees.
"""

import argparse
from datetime import datetime
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

HERE = Path(os.environ.get("SMALLFIX_REALBUGS_DIR") or Path(__file__).resolve().parent.parent / "benchmarks" / "realbugs")
BUGS = HERE / "bugs.jsonl"
ENVS = HERE / "envs"
TORCH_PIN = "torch==2.13.0"  # the CPU wheel on disk; any other torch on PyPI is a CUDA build
# smallfix's own tools in every venv, not the project's: coverage.py ranks lines when the failing
# output names only the tests (repair's coverage fallback). No dependencies on Python >= 3.11.
TOOL_PINS = ["coverage==7.17.5"]
PYPI = os.environ.get("SMALLFIX_PYPI_JSON", "https://pypi.org/pypi")


class Refused(Exception):
    """Bad input or a tree that cannot be made; the message says which and why."""


def cache_dir() -> Path:
    root = os.environ.get("SMALLFIX_REALBUGS_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "smallfix", "realbugs")
    return Path(root)


def load_bugs(path: Path = BUGS) -> list:
    bugs = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.strip():
                try:
                    bugs.append(json.loads(line))
                except json.JSONDecodeError as e:
                    raise Refused(f"{path}:{number}: not JSON: {e}")
    return bugs


def find_bug(bug_id: str) -> dict:
    for bug in load_bugs():
        if bug["id"] == bug_id:
            return bug
    raise Refused(f"no bug '{bug_id}' in {BUGS}")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def run(argv, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(argv, check=True, capture_output=True, **kwargs)


# ---------------------------------------------------------------------------- venvs

def venv_dir(env: str) -> Path:
    return cache_dir() / "venvs" / env


def lock_file(env: str) -> Path:
    lock = ENVS / f"{env}.txt"
    if not lock.is_file():
        raise Refused(f"no lock file {lock} for env '{env}'")
    return lock


def setup_env(env: str, base_python: str) -> Path:
    """Makes (or keeps, when its lock file is unchanged) the venv of `env`."""
    lock = lock_file(env)
    target = venv_dir(env)
    stamp = target / ".smallfix-lock"
    wanted = sha256(lock.read_bytes())
    if stamp.is_file() and stamp.read_text() == wanted:
        install_tools(target)
        print(f"realbugs: {env}: up to date", flush=True)
        return target
    if target.exists():
        shutil.rmtree(target)
    print(f"realbugs: {env}: making {target}", flush=True)
    subprocess.run([base_python, "-m", "venv", str(target)], check=True)
    pip = [str(target / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    # torch first and alone, pinned: the lock's other lines install without dependencies, so
    # nothing can ask pip for another torch.
    subprocess.run(pip + [TORCH_PIN], check=True)
    pins = [line for line in lock.read_text().splitlines()
            if line.strip() and not line.startswith("#") and not line.lower().startswith("torch==")]
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as rest:
        rest.write("\n".join(pins) + "\n")
    try:
        subprocess.run(pip + ["--no-deps", "-r", rest.name], check=True)
    finally:
        os.unlink(rest.name)
    stamp.write_text(wanted)
    install_tools(target)
    return target


def install_tools(target: Path) -> None:
    """Installs TOOL_PINS into a venv that lacks them; kept apart from the lock's stamp, so a
    new tool pin does not remake every venv."""
    stamp = target / ".smallfix-tools"
    wanted = "\n".join(TOOL_PINS)
    if stamp.is_file() and stamp.read_text() == wanted:
        return
    pip = [str(target / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run(pip + ["--no-deps"] + TOOL_PINS, check=True)
    stamp.write_text(wanted)


def command_setup(args) -> int:
    bugs = load_bugs()
    envs = set(args.env)
    for bug in bugs:
        if (args.bug and bug["id"] in args.bug) or (args.project and bug["project"] in args.project):
            envs.add(bug["env"])
    if not (args.bug or args.project or args.env):
        envs = {bug["env"] for bug in bugs}
    if not envs:
        raise Refused("no bug or env matches the --bug/--project/--env given")
    for env in sorted(envs):
        setup_env(env, args.base_python)
    return 0


def command_python(args) -> int:
    python = venv_dir(args.env) / "bin" / "python"
    if not (venv_dir(args.env) / ".smallfix-lock").is_file():
        raise Refused(f"env '{args.env}' is not set up: run scripts/realbugs.sh setup --env {args.env}")
    print(python)
    return 0


# ---------------------------------------------------------------------------- trees

def mirror_of(bug: dict, mirror_root: str) -> Path:
    return Path(mirror_root) / bug["repo"].replace("/", "+") / "repo"


def git_blob(mirror: Path, commit: str, path: str):
    """The file's bytes at `commit`, or None where the commit has no such file."""
    done = subprocess.run(["git", "--git-dir", str(mirror), "show", f"{commit}:{path}"], capture_output=True)
    return done.stdout if done.returncode == 0 else None


def extract_tar(stream, dest: Path, strip_top: bool) -> None:
    with tarfile.open(fileobj=stream, mode="r|*") as tar:
        for member in tar:
            name = member.name.split("/", 1)[1] if strip_top and "/" in member.name else member.name
            if strip_top and "/" not in member.name:
                continue
            if not name or not (member.isfile() or member.isdir()):
                continue  # links and devices: a tree for tests needs neither
            member.name = name
            tar.extract(member, dest, filter="data")


def tree_from_git(bug: dict, side: str, dest: Path, mirror_root: str) -> None:
    mirror = mirror_of(bug, mirror_root)
    if not mirror.is_dir():
        raise Refused(f"no history of {bug['repo']} at {mirror}")
    # Blob by blob rather than `git archive`: a fetched snapshot may lack its largest blobs,
    # which no test of ours reads (a bug's own files are checked below).
    listing = run(["git", "--git-dir", str(mirror), "ls-tree", "-r", "-z", bug["fix_commit"]]).stdout
    entries = []
    for record in listing.split(b"\0"):
        if record:
            meta, path = record.split(b"\t", 1)
            mode, kind, sha = meta.split()
            if kind == b"blob" and mode != b"120000":
                entries.append((sha.decode(), path.decode("utf-8", "surrogateescape"), mode == b"100755"))
    batch = subprocess.Popen(["git", "--git-dir", str(mirror), "cat-file", "--batch"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    threading_feed(batch.stdin, b"".join(sha.encode() + b"\n" for sha, _, _ in entries))
    for sha, path, executable in entries:
        header = batch.stdout.readline().split()
        if len(header) < 3:  # "<sha> missing"
            continue
        data = batch.stdout.read(int(header[2]))
        batch.stdout.read(1)
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        if executable:
            target.chmod(0o755)
    batch.wait()
    if side == "buggy":
        for path in bug["files"]:
            text = git_blob(mirror, bug["parent_commit"], path)
            if text is None:
                (dest / path).unlink(missing_ok=True)
            else:
                (dest / path).write_bytes(text)


def threading_feed(pipe, data: bytes) -> None:
    """Writes `data` to `pipe` from a thread and closes it, so neither side blocks on a full pipe."""
    import threading

    def feed():
        try:
            pipe.write(data)
        finally:
            pipe.close()
    threading.Thread(target=feed, daemon=True).start()


def pypi_json(path: str) -> dict:
    """PyPI's JSON API (SMALLFIX_PYPI_JSON may name another base, file:// included)."""
    try:
        with urllib.request.urlopen(f"{PYPI}/{path}/json", timeout=60) as answer:
            return json.load(answer)
    except (OSError, ValueError) as e:
        raise Refused(f"cannot read {PYPI}/{path}/json: {e}")


def sdist(package: str, version: str) -> Path:
    """The source distribution of `package==version`, downloaded once into the cache. Read as
    a file, never built: nothing of it runs."""
    folder = cache_dir() / "sdists" / f"{package}-{version}"
    found = sorted(folder.glob("*.tar.gz")) if folder.is_dir() else []
    if found:
        return found[0]
    # The package's page lists every release (a mirror of PyPI may not serve per-version
    # pages), with file addresses that may be relative to it.
    files = [f for f in pypi_json(package).get("releases", {}).get(version, [])
             if f.get("packagetype") == "sdist" and f.get("filename", "").endswith(".tar.gz")]
    if not files:
        raise Refused(f"{package}=={version} has no .tar.gz source distribution on PyPI")
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / files[0]["filename"]
    partial = target.with_suffix(".part")
    try:
        url = urllib.parse.urljoin(f"{PYPI}/{package}/json", files[0]["url"])
        with urllib.request.urlopen(url, timeout=300) as answer, open(partial, "wb") as out:
            shutil.copyfileobj(answer, out)
    except OSError as e:
        partial.unlink(missing_ok=True)
        raise Refused(f"cannot download {url}: {e}")
    want = files[0].get("digests", {}).get("sha256")
    if want and sha256(partial.read_bytes()) != want:
        partial.unlink()
        raise Refused(f"{url}: the download does not match PyPI's sha256")
    partial.rename(target)
    return target


def sdist_files(archive: Path, paths) -> dict:
    """{path: bytes} of the given repo-relative paths inside the sdist (top folder stripped)."""
    wanted, found = set(paths), {}
    with tarfile.open(archive, "r:*") as tar:
        for member in tar:
            if "/" in member.name and member.isfile():
                name = member.name.split("/", 1)[1]
                if name in wanted:
                    found[name] = tar.extractfile(member).read()
    return found


def tree_from_pypi(bug: dict, side: str, dest: Path) -> None:
    pypi = bug.get("pypi")
    if not pypi:
        raise Refused(f"{bug['id']}: no PyPI release pair is recorded; it needs the history (--mirror-root)")
    fixed = sdist(pypi["package"], pypi["fixed"])
    with open(fixed, "rb") as stream:
        extract_tar(stream, dest, strip_top=True)
    if side == "buggy":
        old = sdist_files(sdist(pypi["package"], pypi["buggy"]), bug["files"])
        for path in bug["files"]:
            if path in old:
                (dest / path).write_bytes(old[path])
            else:
                (dest / path).unlink(missing_ok=True)


def check_text(bug: dict, side: str, dest: Path, source: str) -> None:
    """Every file the fix changes holds the text recorded for this side. The fix's test files
    hold the fix commit's text in a tree from the history; in one from PyPI they need only be
    there (a later release may have more tests in them: --verify says whether the bug shows)."""
    for path, sums in bug.get("sha256", {}).items():
        file = dest / path
        if path not in bug["files"] and source == "pypi":
            if not file.is_file():
                raise Refused(f"{bug['id']}: the release has no {path}")
            continue
        want = sums["parent"] if side == "buggy" and path in bug["files"] else sums["fix"]
        have = sha256(file.read_bytes()) if file.is_file() else None
        if have != want:
            raise Refused(f"{bug['id']}: {path} in the {side} tree is not the recorded text "
                          f"(sha256 {have or 'absent'}, expected {want or 'absent'})")


def make_repo(dest: Path, message: str) -> None:
    git = ["git", "-c", "user.name=smallfix-realbugs", "-c", "user.email=realbugs@smallfix.invalid",
           "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false"]
    run(git + ["init", "-q"], cwd=dest)
    run(git + ["add", "-A", "-f", "."], cwd=dest)
    run(git + ["commit", "-q", "--no-verify", "-m", message], cwd=dest)


def command_tree(args) -> int:
    bug = find_bug(args.bug)
    dest = Path(args.dest)
    if dest.exists() and any(dest.iterdir()):
        raise Refused(f"--dest {dest} exists and is not empty")
    dest.mkdir(parents=True, exist_ok=True)
    source = args.source
    if source == "auto":
        source = "git" if mirror_of(bug, args.mirror_root).is_dir() else "pypi"
    try:
        if source == "git":
            tree_from_git(bug, args.side, dest, args.mirror_root)
        else:
            tree_from_pypi(bug, args.side, dest)
        check_text(bug, args.side, dest, source)
        make_repo(dest, f"{bug['id']} {args.side} ({source})")
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise
    print(source)
    return 0


# ---------------------------------------------------------------------------- facts

def split_of(fix_commit: str) -> str:
    """realfix's rule, so a commit in both benchmarks is on the same side: about 40% test."""
    return "test" if int(hashlib.sha256(fix_commit.encode()).hexdigest()[:8], 16) % 5 < 2 else "dev"


def changed_lines(mirror: Path, bug: dict) -> int:
    out = run(["git", "--git-dir", str(mirror), "diff", "--numstat", bug["parent_commit"], bug["fix_commit"],
               "--", *bug["files"]], text=True).stdout
    return sum(int(a) + int(d) for a, d, _ in (line.split("\t", 2) for line in out.splitlines()) if a != "-")


def pypi_pair(bug: dict, mirror: Path, package: str):
    """The nearest release before the fix whose files hold the parent's text and the nearest
    after it whose files hold the fix's and that has the fix's test files, or None."""
    releases = pypi_json(package)["releases"]
    when = run(["git", "--git-dir", str(mirror), "show", "-s", "--format=%cI", bug["fix_commit"]], text=True).stdout.strip()
    fixed_at = datetime.fromisoformat(when)
    dated = []
    for version, files in releases.items():
        sdists = [f for f in files if f["packagetype"] == "sdist" and not f.get("yanked")]
        if sdists and all(c.isdigit() or c == "." for c in version):
            dated.append((datetime.fromisoformat(sdists[0]["upload_time_iso_8601"].replace("Z", "+00:00")), version))
    dated.sort()
    before = [v for t, v in dated if t < fixed_at]
    after = [v for t, v in dated if t > fixed_at]
    sums = bug["sha256"]

    def holds(version, side):
        try:
            files = sdist_files(sdist(package, version), list(sums))
        except Refused:
            return False
        if any((sha256(files[p]) if p in files else None) != sums[p][side] for p in bug["files"]):
            return False
        return side == "parent" or all(p in files for p in bug["test_files"])

    # The nearest releases first, a few on each side: a file the fix changed may have changed
    # again just before or after it.
    buggy = next((v for v in reversed(before[-RELEASES_TRIED:]) if holds(v, "parent")), None)
    fixed = next((v for v in after[:RELEASES_TRIED] if holds(v, "fix")), None) if buggy else None
    return {"package": package, "buggy": buggy, "fixed": fixed} if buggy and fixed else None


RELEASES_TRIED = 4
PYPI_NAMES = {"composer": "mosaicml"}  # where the PyPI name is not the project's


def command_facts(args) -> int:
    """Derives what the history says of each bug (text sums, lines changed, split, a PyPI
    pair) and writes bugs.jsonl, ordered by project and id."""
    sources = sorted((HERE / "staging").glob("*.jsonl")) if args.staging else [BUGS]
    bugs = [bug for path in sources for bug in load_bugs(path)]
    seen = set()
    for bug in bugs:
        if bug["id"] in seen:
            raise Refused(f"bug {bug['id']} is listed twice")
        seen.add(bug["id"])
        mirror = mirror_of(bug, args.mirror_root)
        if not mirror.is_dir():
            raise Refused(f"{bug['id']}: no history at {mirror}")
        sums = {}
        for path in bug["files"] + bug["test_files"]:
            parent = git_blob(mirror, bug["parent_commit"], path)
            fix = git_blob(mirror, bug["fix_commit"], path)
            sums[path] = {"parent": sha256(parent) if parent is not None else None,
                          "fix": sha256(fix) if fix is not None else None}
        bug["sha256"] = sums
        bug["lines_changed"] = changed_lines(mirror, bug)
        bug["split"] = split_of(bug["fix_commit"])
        if bug.get("pypi_refused"):
            bug["pypi"] = None  # a pair was found, but that tree does not show the bug (--verify)
        elif args.pypi:
            package = PYPI_NAMES.get(bug["project"], bug["project"])
            try:
                bug["pypi"] = pypi_pair(bug, mirror, package)
            except (Refused, OSError) as e:
                print(f"realbugs: {bug['id']}: no PyPI pair ({e})", file=sys.stderr)
                bug["pypi"] = None
        else:
            bug.setdefault("pypi", None)
        print(f"realbugs: {bug['id']}: {bug['split']}, {bug['lines_changed']} lines, "
              f"pypi {bug['pypi'] and bug['pypi']['buggy'] + ' -> ' + bug['pypi']['fixed']}", file=sys.stderr)
    bugs.sort(key=lambda b: (b["project"], b["id"]))
    with open(BUGS, "w", encoding="utf-8") as out:
        for bug in bugs:
            out.write(json.dumps(bug, sort_keys=False) + "\n")
    print(f"realbugs: wrote {len(bugs)} bugs to {BUGS}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="realbugs.py", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    setup = sub.add_parser("setup", help="make the pinned venvs (all, or those of the bugs named)")
    setup.add_argument("--bug", action="append", default=[])
    setup.add_argument("--project", action="append", default=[])
    setup.add_argument("--env", action="append", default=[])
    setup.add_argument("--base-python", default=os.environ.get("SMALLFIX_BASE_PYTHON", "python3.11"))
    python = sub.add_parser("python", help="print the interpreter of a venv that setup made")
    python.add_argument("--env", required=True)
    tree = sub.add_parser("tree", help="materialise a bug's buggy or fixed tree")
    tree.add_argument("--bug", required=True)
    tree.add_argument("--side", choices=["buggy", "fixed"], required=True)
    tree.add_argument("--dest", required=True)
    tree.add_argument("--from", dest="source", choices=["auto", "git", "pypi"], default="auto")
    tree.add_argument("--mirror-root", default=os.environ.get("SMALLFIX_MIRROR_ROOT", "/work/.mirror"))
    facts = sub.add_parser("facts", help="derive sums, lines, split and PyPI pairs into bugs.jsonl")
    facts.add_argument("--mirror-root", default=os.environ.get("SMALLFIX_MIRROR_ROOT", "/work/.mirror"))
    facts.add_argument("--pypi", action="store_true", help="also look for a PyPI release pair")
    facts.add_argument("--staging", action="store_true", help="read staging/*.jsonl instead of bugs.jsonl")
    args = parser.parse_args()
    try:
        return {"setup": command_setup, "python": command_python, "tree": command_tree,
                "facts": command_facts}[args.command](args)
    except Refused as e:
        print(f"realbugs: {e}", file=sys.stderr)
        return 2
    except subprocess.CalledProcessError as e:
        print(f"realbugs: {' '.join(map(str, e.cmd))} failed: {(e.stderr or b'')[-600:]!r}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
