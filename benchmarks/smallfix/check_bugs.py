#!/usr/bin/env python3
"""Self-check of the small-fix benchmark, without the engine.

Usage: check_bugs.py [--bug ID ...] [--python /usr/bin/python3] [--jobs N] [--keep]

For every bug under bugs/ (or only the ones named with --bug) this script:

  1. checks bug.yaml has every field, that id matches the directory and the
     family prefix, that lines_changed equals the +/- lines of fix.diff and is
     at most 10, that site is a line the fix changes (or inserts before) in
     a file it changes, and that issue.md,
     project/ and heldback/test_*.py exist;
  2. copies project/ to a temporary directory and runs tests.failing there,
     which must FAIL (non-zero exit status);
  3. applies fix.diff with `git apply` in the copy and runs tests.failing and
     tests.passing, which must both pass;
  4. copies heldback/ into the copy as heldback/ and runs tests.heldback,
     which must pass.

Commands run with the copy as working directory through `bash -c`, with a
shim directory first on PATH whose `python` is the --python interpreter.
When world_size >= 2 every command runs as world_size ranks through
launch.py (--nproc world_size --timeout timeout); otherwise it runs once
under the bug's timeout (exit status 124 when it ran out of time).

Prints `ok  ID` or `FAIL ID: STEP` followed by the last lines of output for
each bug, then a final line `N passed, M failed`. Exit status 1 when any bug
failed. Temporary directories and the processes it started are removed,
also on Ctrl-C and SIGTERM.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
BUGS_DIR = os.path.join(HERE, "bugs")
LAUNCH = os.path.join(HERE, "launch.py")

FAMILIES = ("guard", "param", "compat", "other")
ID_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)+$")
PATTERN_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MAX_LINES = 10
TAIL_LINES = 15

_lock = threading.Lock()
_live_procs = set()
_temp_dirs = set()
_interrupted = threading.Event()


class CheckError(Exception):
    def __init__(self, step, output=""):
        super().__init__(step)
        self.step = step
        self.output = output


# ---------------------------------------------------------------- bug.yaml

def parse_diff(text):
    """Parse a unified diff.

    Returns (changed, sites): the number of added + removed lines, counted
    hunk by hunk, and for every file the diff changes the set of old-file
    line numbers it touches (removed lines, and the line that added lines
    are inserted before).
    """
    changed = 0
    sites = {}
    current = None
    old_left = new_left = 0
    old_no = 0
    block_removes = False
    hunk_re = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@")
    for line in text.splitlines():
        if old_left > 0 or new_left > 0:
            if line.startswith("\\"):
                continue
            tag = line[:1]
            if tag == "+":
                changed += 1
                new_left -= 1
                if not block_removes:  # pure insertion: before the next old line
                    sites[current].add(old_no)
            elif tag == "-":
                changed += 1
                old_left -= 1
                sites[current].add(old_no)
                old_no += 1
                block_removes = True
            elif tag == " " or line == "":
                old_left -= 1
                new_left -= 1
                old_no += 1
                block_removes = False
            else:
                raise ValueError("malformed hunk line: %r" % line)
            continue
        m = hunk_re.match(line)
        if m:
            if current is None:
                raise ValueError("hunk before any +++ header")
            old_no = int(m.group(1))
            block_removes = False
            old_left = int(m.group(2)) if m.group(2) is not None else 1
            new_left = int(m.group(3)) if m.group(3) is not None else 1
            if old_left == 0:  # pure insertion after line N
                old_no += 1
        elif line.startswith("+++ "):
            name = line[4:].split("\t")[0].strip()
            current = name[2:] if name.startswith("b/") else name
            sites.setdefault(current, set())
    if old_left > 0 or new_left > 0:
        raise ValueError("fix.diff ends inside a hunk")
    return changed, sites


def load_bug(bug_dir):
    """Parse and validate bug.yaml; returns the dict. Raises CheckError."""
    name = os.path.basename(bug_dir)
    path = os.path.join(bug_dir, "bug.yaml")
    if not os.path.isfile(path):
        raise CheckError("bug.yaml missing")
    try:
        with open(path, encoding="utf-8") as f:
            bug = yaml.safe_load(f)
    except yaml.YAMLError as e:
        raise CheckError("bug.yaml does not parse", str(e))
    if not isinstance(bug, dict):
        raise CheckError("bug.yaml is not a mapping")
    problems = []
    for key in ("id", "title", "family", "pattern", "lines_changed", "world_size",
                "component", "upstream", "site", "timeout", "tests"):
        if key not in bug or bug[key] in (None, ""):
            problems.append("missing field %s" % key)
    if problems:
        raise CheckError("bug.yaml: " + "; ".join(problems))
    if bug["id"] != name:
        problems.append("id %r is not the directory name %r" % (bug["id"], name))
    if not ID_RE.match(str(bug["id"])):
        problems.append("id is not kebab-case")
    if bug["family"] not in FAMILIES:
        problems.append("family %r not one of %s" % (bug["family"], ", ".join(FAMILIES)))
    elif not str(bug["id"]).startswith(bug["family"] + "-"):
        problems.append("id does not start with the family prefix %s-" % bug["family"])
    if not PATTERN_RE.match(str(bug["pattern"])):
        problems.append("pattern is not short kebab-case")
    for key in ("lines_changed", "world_size", "timeout"):
        if not isinstance(bug[key], int) or isinstance(bug[key], bool) or bug[key] < 1:
            problems.append("%s must be a positive integer" % key)
    up = bug["upstream"]
    if not isinstance(up, dict) or not up.get("repo") or not up.get("class"):
        problems.append("upstream needs repo and class")
    else:
        for key in ("issue", "pr"):
            if key in up and not isinstance(up[key], int):
                problems.append("upstream.%s must be a number" % key)
    site = bug["site"]
    if not isinstance(site, dict) or not site.get("file") or not isinstance(site.get("line"), int):
        problems.append("site needs file and an integer line")
    tests = bug["tests"]
    if not isinstance(tests, dict):
        problems.append("tests must be a mapping")
    else:
        for key in ("failing", "passing", "heldback"):
            if not isinstance(tests.get(key), str) or not tests[key].strip():
                problems.append("tests.%s missing" % key)
    if problems:
        raise CheckError("bug.yaml: " + "; ".join(problems))

    for rel in ("issue.md", "fix.diff"):
        if not os.path.isfile(os.path.join(bug_dir, rel)):
            raise CheckError("%s missing" % rel)
    if not os.path.isdir(os.path.join(bug_dir, "project")):
        raise CheckError("project/ missing")
    held = os.path.join(bug_dir, "heldback")
    if not os.path.isdir(held) or not any(
            n.startswith("test_") and n.endswith(".py") for n in os.listdir(held)):
        raise CheckError("heldback/ has no test_*.py")
    with open(os.path.join(bug_dir, "issue.md"), encoding="utf-8") as f:
        issue = f.read()
    if HERE in issue or "/work/" in issue:
        raise CheckError("issue.md shows the checkout path; replace it with a user path")

    with open(os.path.join(bug_dir, "fix.diff"), encoding="utf-8") as f:
        diff = f.read()
    try:
        changed, sites = parse_diff(diff)
    except ValueError as e:
        raise CheckError("fix.diff: %s" % e)
    if changed == 0:
        raise CheckError("fix.diff changes no line")
    if changed > MAX_LINES:
        raise CheckError("fix.diff changes %d lines (> %d)" % (changed, MAX_LINES))
    if changed != bug["lines_changed"]:
        raise CheckError("lines_changed is %d but fix.diff changes %d lines"
                         % (bug["lines_changed"], changed))
    if site["file"] not in sites:
        raise CheckError("site.file %s is not changed by fix.diff (%s)"
                         % (site["file"], ", ".join(sorted(sites))))
    if site["line"] not in sites[site["file"]]:
        raise CheckError("site.line %d is not a line fix.diff changes or inserts before (%s)"
                         % (site["line"], ", ".join(map(str, sorted(sites[site["file"]])))))
    site_path = os.path.join(bug_dir, "project", site["file"])
    if not os.path.isfile(site_path):
        raise CheckError("site.file %s not in project/" % site["file"])
    with open(site_path, encoding="utf-8") as f:
        n_lines = len(f.read().splitlines())
    if not 1 <= site["line"] <= n_lines + 1:
        raise CheckError("site.line %d outside %s (%d lines)" % (site["line"], site["file"], n_lines))
    return bug


# ---------------------------------------------------------------- running

def run_cmd(argv, cwd, env, timeout):
    """Run argv in its own session; returns (exit status, output). 124 on timeout."""
    if _interrupted.is_set():
        raise KeyboardInterrupt
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True)
    with _lock:
        _live_procs.add(p)
        if _interrupted.is_set():
            _kill(p)
    try:
        try:
            out, _ = p.communicate(timeout=timeout)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            _kill(p)
            out, _ = p.communicate()
            out += b"\ncheck_bugs.py: killed after %d s time limit\n" % timeout
            rc = 124
    except BaseException:
        _kill(p)
        raise
    finally:
        with _lock:
            _live_procs.discard(p)
    return rc, out.decode("utf-8", "replace")


def _abort():
    _interrupted.set()
    with _lock:
        procs = list(_live_procs)
    for p in procs:
        _kill(p)


def _descendants(pid):
    """Pids below pid (launch.py starts each rank in its own session)."""
    children = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for e in entries:
        if not e.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % e) as f:
                stat = f.read()
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(e))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def _kill(p):
    """SIGKILL p's process group and the groups of everything below it."""
    pids = [p.pid] + _descendants(p.pid)
    for pid in pids:
        for killer in (os.killpg, os.kill):
            try:
                killer(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def run_test(bug, key, cwd, env, python):
    cmd = bug["tests"][key]
    ws = bug["world_size"]
    timeout = bug["timeout"]
    if ws >= 2:
        argv = [python, LAUNCH, "--nproc", str(ws), "--timeout", str(timeout),
                "--", "bash", "-c", cmd]
        # launch.py enforces the limit itself; ours only backs it up.
        return run_cmd(argv, cwd, env, timeout + 30)
    return run_cmd(["bash", "-c", cmd], cwd, env, timeout)


def tail(text, n=TAIL_LINES):
    lines = text.rstrip().splitlines()
    return "\n".join("    " + l for l in lines[-n:])


def check_one(bug_dir, python, shim_dir):
    bug = load_bug(bug_dir)
    tmp = tempfile.mkdtemp(prefix="smallfix-%s-" % bug["id"])
    with _lock:
        _temp_dirs.add(tmp)
    try:
        work = os.path.join(tmp, "project")
        shutil.copytree(os.path.join(bug_dir, "project"), work,
                        ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", "*.pyc"))
        env = dict(os.environ)
        env["PATH"] = shim_dir + os.pathsep + env.get("PATH", "")
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTEST_ADDOPTS"] = (env.get("PYTEST_ADDOPTS", "") + " -p no:cacheprovider").strip()
        env.pop("PYTHONPATH", None)
        for k in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE",
                  "MASTER_ADDR", "MASTER_PORT"):
            env.pop(k, None)

        rc, out = run_test(bug, "failing", work, env, python)
        if rc == 0:
            raise CheckError("tests.failing passes on the buggy project", out)

        rc, out = run_cmd(["git", "apply", "--verbose", os.path.join(bug_dir, "fix.diff")],
                          work, env, 60)
        if rc != 0:
            raise CheckError("git apply fix.diff failed", out)

        for key in ("failing", "passing"):
            rc, out = run_test(bug, key, work, env, python)
            if rc != 0:
                raise CheckError("tests.%s fails with the fix (exit %d)" % (key, rc), out)

        shutil.copytree(os.path.join(bug_dir, "heldback"), os.path.join(work, "heldback"),
                        ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", "*.pyc"))
        rc, out = run_test(bug, "heldback", work, env, python)
        if rc != 0:
            raise CheckError("tests.heldback fails with the fix (exit %d)" % rc, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        with _lock:
            _temp_dirs.discard(tmp)
    return bug


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bug", action="append", default=[], metavar="ID",
                    help="check only this bug (repeatable)")
    default_py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
    ap.add_argument("--python", default=default_py,
                    help="interpreter with torch, used as `python` (default %(default)s)")
    ap.add_argument("--jobs", type=int, default=1, help="bugs checked at once")
    args = ap.parse_args()

    if args.bug:
        names = []
        for b in args.bug:
            names.extend(x for x in b.split(",") if x)
    else:
        names = sorted(n for n in os.listdir(BUGS_DIR)
                       if os.path.isdir(os.path.join(BUGS_DIR, n)))
    python = os.path.abspath(args.python) if os.sep in args.python else shutil.which(args.python)
    if not python or not os.access(python, os.X_OK):
        ap.error("no interpreter %s" % args.python)

    def _on_term(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, _on_term)

    shim_dir = tempfile.mkdtemp(prefix="smallfix-shim-")
    _temp_dirs.add(shim_dir)
    os.symlink(python, os.path.join(shim_dir, "python"))
    os.symlink(python, os.path.join(shim_dir, "python3"))

    passed = failed = 0

    def report(name, fut_or_exc):
        nonlocal passed, failed
        exc = fut_or_exc
        if exc is None:
            passed += 1
            print("ok  %s" % name, flush=True)
            return
        failed += 1
        if isinstance(exc, CheckError):
            msg = "FAIL %s: %s" % (name, exc.step)
            if exc.output:
                msg += "\n" + tail(exc.output)
        else:
            msg = "FAIL %s: internal error %s: %s" % (name, type(exc).__name__, exc)
        print(msg, flush=True)

    def task(name):
        bug_dir = os.path.join(BUGS_DIR, name)
        if not os.path.isdir(bug_dir):
            return CheckError("no bug directory bugs/%s" % name)
        try:
            check_one(bug_dir, python, shim_dir)
        except KeyboardInterrupt:
            raise
        except Exception as e:  # reported per bug
            return e
        return None

    try:
        if args.jobs <= 1:
            for name in names:
                report(name, task(name))
        else:
            pool = concurrent.futures.ThreadPoolExecutor(args.jobs)
            try:
                futs = {pool.submit(task, n): n for n in names}
                for fut in concurrent.futures.as_completed(futs):
                    report(futs[fut], fut.result())
            except KeyboardInterrupt:
                _abort()
                raise
            finally:
                pool.shutdown(wait=not _interrupted.is_set(), cancel_futures=True)
    except KeyboardInterrupt:
        _abort()
        print("\ninterrupted", flush=True)
        return 130
    finally:
        with _lock:
            dirs = list(_temp_dirs)
        for d in dirs:
            shutil.rmtree(d, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
