#!/usr/bin/python3
"""Runs the bad-input catalogue (cases.yaml) against a smallfix binary.

usage: run_catalogue.py SMALLFIX SRC [--only REGEX] [--jobs N] [--markdown FILE] [--keep]

Each row gets a scratch folder $WORK with a fresh git repository $REPO (tests/badinput/project,
one commit), $WORK/tmp as TMPDIR and $WORK/home as HOME. The row's `setup` (bash, with lib.bash
sourced) shapes the input; then `run` (bash; `smallfix` on PATH is the binary) runs in its own
process group under the row's time limit. A row passes when:
  - the exit status is one of `exit` and no signal ended the process;
  - no sanitizer report, uncaught exception or assertion appears in its output;
  - its output matches `message` (the message names the thing that was wrong);
  - the repository's files, status, refs, worktrees and stashes are as before the run;
  - TMPDIR is empty afterwards and no process is left whose command line or working directory
    lies in $WORK (servers the setup started are stopped by the runner);
  - the row's `after` check (bash), when it has one, succeeds.
A row with `skip: REASON` is reported as skipped, with the reason. Exit status: 0 when every
row that ran passed, 1 otherwise.
"""
import argparse
import concurrent.futures
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
CRASH = re.compile(r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:|"
                   r"terminate called|Assertion .* failed|Segmentation fault|core dumped")


def bash(script, env, cwd, timeout, stdout=subprocess.PIPE, stderr=subprocess.STDOUT):
    """Runs `script` with lib.bash sourced, in its own process group; returns (rc, output, secs)."""
    full = f"set -euo pipefail\nsource {HERE}/lib.bash\n{script}\n"
    start = time.monotonic()
    proc = subprocess.Popen(["bash", "-c", full], env=env, cwd=cwd, stdout=stdout, stderr=stderr,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        timed_out = True
    text = (out or b"").decode("utf-8", "replace") + (err or b"").decode("utf-8", "replace")
    return (None if timed_out else proc.returncode), text, time.monotonic() - start


def snapshot(repo, ignore=None):
    """What a run must leave as it found it: files, status, refs, worktrees, stashes. Lines
    matching `ignore` (a row's regex) are left out."""
    if not os.path.isdir(repo):
        return ["(no repository)"]
    lines = []
    for root, dirs, files in os.walk(repo):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        for name in sorted(files + [d for d in dirs if os.path.islink(os.path.join(root, d))]):
            path = os.path.join(root, name)
            rel = os.path.relpath(path, repo)
            if os.path.islink(path):
                lines.append(f"{rel} -> {os.readlink(path)}")
            elif os.path.isfile(path) and os.path.getsize(path) < (64 << 20):
                with open(path, "rb") as f:
                    lines.append(f"{rel} {hashlib.sha1(f.read()).hexdigest()}")
            else:
                lines.append(f"{rel} size={os.path.getsize(path) if os.path.isfile(path) else '-'}")
    for args in (["status", "--porcelain=v1", "--ignored", "-uall"], ["for-each-ref"],
                 ["worktree", "list", "--porcelain"], ["stash", "list"]):
        run = subprocess.run(["git", "-C", repo] + args, capture_output=True, text=True)
        lines.append(f"$ git {' '.join(args)} ({run.returncode})")
        lines.extend(run.stdout.splitlines())
    return [line for line in lines if not (ignore and re.search(ignore, line))]


def leftover_processes(work, allowed):
    """Processes other than `allowed` whose command line or working directory is under `work`."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) in allowed or int(pid) == os.getpid():
            continue
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if cwd.startswith(work) or work in cmdline:
            found.append(f"{pid} ({cmdline.strip()[:80]}, cwd {cwd})")
    return found


def stop_servers(work):
    pids = set()
    path = os.path.join(work, "servers")
    if os.path.exists(path):
        for line in open(path):
            if line.strip().isdigit():
                pids.add(int(line))
    for pid in pids:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    return pids


def row_env(args, work, repo):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SMALLFIX_", "GITHUB_", "OPENAI_"))}
    bindir = os.path.join(work, "bin")
    os.makedirs(bindir)
    os.symlink(os.path.abspath(args.smallfix), os.path.join(bindir, "smallfix"))
    venv = os.path.join(args.src, ".venv", "bin")
    env.update({
        "SRC": args.src, "WORK": work, "REPO": repo, "HERE": HERE,
        "FIXTURE": os.path.join(HERE, "project"), "LOG": os.path.join(HERE, "failure.log"),
        "PY": os.path.join(venv, "python") if os.path.exists(os.path.join(venv, "python")) else "python3",
        "TMPDIR": os.path.join(work, "tmp"), "HOME": os.path.join(work, "home"),
        "XDG_CACHE_HOME": os.path.join(work, "home", ".cache"),
        "GIT_CONFIG_GLOBAL": os.path.join(work, "home", ".gitconfig"),
        "PATH": f"{bindir}:{venv}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        # A sanitizer build (build-asan/, build-fuzz/) reports through these; leaks of the
        # libraries' one-time state are suppressed as in the unit tests.
        "LSAN_OPTIONS": f"suppressions={os.path.join(args.src, 'tests', 'lsan.supp')}",
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
    })
    os.makedirs(env["TMPDIR"])
    os.makedirs(env["HOME"])
    with open(env["GIT_CONFIG_GLOBAL"], "w") as f:
        f.write("[user]\n\tname = Catalogue\n\temail = catalogue@example.com\n"
                "[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"
                "[protocol \"file\"]\n\tallow = always\n")
    return env


def run_row(args, row):
    result = {"row": row, "status": "pass", "problems": [], "got": "", "seconds": 0.0, "output": "",
              "matched": "", "work": ""}
    if row.get("skip"):
        result["status"], result["reason"] = "skip", row["skip"]
        return result
    work = tempfile.mkdtemp(prefix=f"smallfix-badinput-{row['id']}-")
    result["work"] = work
    repo = os.path.join(work, "repo")
    shutil.copytree(os.path.join(HERE, "project"), repo)
    env = row_env(args, work, repo)
    servers = set()
    try:
        rc, out, _ = bash("git_init \"$REPO\"\n" + row.get("setup", ""), env, work, 120)
        if rc == 77:
            result["status"], result["reason"] = "skip", out.strip().splitlines()[-1]
            return result
        if rc != 0:
            result["status"] = "fail"
            result["problems"].append(f"setup failed ({rc}): {out[-400:]}")
            return result
        before = snapshot(repo, row.get("ignore"))
        rc, out, seconds = bash(row["run"], env, work, row.get("timeout", args.timeout))
        result["seconds"], result["output"] = seconds, out
        servers = stop_servers(work)
        time.sleep(0.3)
        expected = row["exit"] if isinstance(row["exit"], list) else [row["exit"]]
        if rc is None:
            result["got"] = "hang"
            result["problems"].append(f"no exit within {row.get('timeout', args.timeout)} s")
        else:
            result["got"] = str(rc) if rc < 128 else f"signal {rc - 128}"
            if rc not in expected:
                result["problems"].append(f"exit {rc}, expected {expected}")
        if CRASH.search(out):
            result["problems"].append(f"crash report: {CRASH.search(out).group(0)}")
        match = re.search(row["message"], out, re.M)
        if match:
            start = out.rfind("\n", 0, match.start()) + 1
            end = out.find("\n", match.end())
            result["matched"] = out[start:end if end >= 0 else len(out)].strip()
        else:
            result["problems"].append(f"no message matching /{row['message']}/")
        after = snapshot(repo, row.get("ignore"))
        if after != before:
            changed = sorted(set(after) ^ set(before))
            result["problems"].append(f"the repository changed: {changed[:4]}")
        if os.path.isdir(env["TMPDIR"]) and os.listdir(env["TMPDIR"]):
            result["problems"].append(f"TMPDIR not empty: {sorted(os.listdir(env['TMPDIR']))[:3]}")
        left = leftover_processes(work, servers)
        if left:
            result["problems"].append(f"processes left: {left[:2]}")
            for entry in left:
                try:
                    os.kill(int(entry.split()[0]), signal.SIGKILL)
                except OSError:
                    pass
        if row.get("after"):
            arc, aout, _ = bash(row["after"], env, work, 60)
            if arc != 0:
                result["problems"].append(f"after-check failed: {aout.strip()[-300:]}")
        if result["problems"]:
            result["status"] = "fail"
        return result
    finally:
        stop_servers(work)
        bash("cleanup_row", env, work, 60)
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def shown(text, work):
    """A message for the table: the row's scratch folder as $WORK, printable, one line."""
    text = text.replace(work, "$WORK") if work else text
    return "".join(c if c.isprintable() else "?" for c in text).replace("|", "\\|")[:130]


def markdown(results, smallfix):
    passed = sum(r["status"] == "pass" for r in results)
    failed = sum(r["status"] == "fail" for r in results)
    skipped = sum(r["status"] == "skip" for r in results)
    out = ["# Bad-input catalogue: results", "",
           "Generated by `tests/badinput/run_catalogue.py` from `tests/badinput/cases.yaml` "
           f"(binary `{os.path.relpath(os.path.abspath(smallfix), os.getcwd())}`). "
           f"{len(results)} rows: {passed} pass, {failed} fail, {skipped} skipped.", "",
           "Each row passes when the exit status is the expected one (no signal, no hang), no "
           "sanitizer report or uncaught exception appears, the output names what was wrong, and "
           "the repository (files, `git status`, refs, worktrees, stashes), TMPDIR and the process "
           "table are left as they were.", "",
           "| # | command | bad input | expected | got | s | the line that names it | result |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for i, r in enumerate(results, 1):
        row = r["row"]
        expected = row["exit"] if isinstance(row["exit"], list) else [row["exit"]]
        if r["status"] == "skip":
            out.append(f"| {i} | {row['command']} | {row['input']} | {'/'.join(map(str, expected))} "
                       f"| - | - | skipped: {r['reason']} | skip |")
            continue
        message = shown(r["matched"], r["work"])
        verdict = "pass" if r["status"] == "pass" else "FAIL: " + "; ".join(r["problems"])
        out.append(f"| {i} | {row['command']} | {row['input']} | {'/'.join(map(str, expected))} | "
                   f"{r['got']} | {r['seconds']:.1f} | `{message}` | {verdict.replace('|', '/')} |")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("smallfix")
    parser.add_argument("src")
    parser.add_argument("--only", default="")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--markdown")
    parser.add_argument("--keep", action="store_true", help="keep each row's scratch folder")
    args = parser.parse_args()
    args.src = os.path.abspath(args.src)
    rows = yaml.safe_load(open(os.path.join(HERE, "cases.yaml")))
    ids = [row["id"] for row in rows]
    assert len(ids) == len(set(ids)), "duplicate row ids"
    rows = [row for row in rows if re.search(args.only, row["id"])]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda row: run_row(args, row), rows))
    for r in results:
        mark = {"pass": "ok  ", "fail": "FAIL", "skip": "skip"}[r["status"]]
        print(f"{mark} {r['row']['id']} ({r['got'] or '-'}, {r['seconds']:.1f} s)"
              + (f": {'; '.join(r['problems'])}" if r["problems"] else "")
              + (f": {r['reason']}" if r["status"] == "skip" else ""))
        if r["status"] == "fail":
            print("     output: " + r["output"][-600:].replace("\n", "\n     "))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(markdown(results, args.smallfix))
    failed = [r for r in results if r["status"] == "fail"]
    print(f"{len(results)} rows: {len(results) - len(failed) - sum(r['status'] == 'skip' for r in results)}"
          f" pass, {len(failed)} fail, {sum(r['status'] == 'skip' for r in results)} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
