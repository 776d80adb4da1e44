#!/usr/bin/env bash
# Clones the repositories of benchmarks/upstream.yaml and checks each fix out next to its
# parent, for users with network access:
#
#   scripts/fetch_upstream.sh [DEST]        # default DEST: ./upstream-fixes
#
# For each entry: DEST/<owner>-<name>-pr<N>/{before,after} (git worktrees of one clone per
# repository), and a line: repo, PR, fix commit, parent, files and lines changed. The fix
# commit is the commit whose subject names the PR "(#N)" (squash merges), else the merge
# commit of pull/N/head. Fixes that change more than 10 lines are flagged.
set -euo pipefail
cd "$(dirname "$0")/.."
DEST="${1:-upstream-fixes}"
mkdir -p "$DEST/clones"
/usr/bin/python3 - "$DEST" <<'PY'
import os, subprocess, sys, yaml

dest = sys.argv[1]
fixes = yaml.safe_load(open("benchmarks/upstream.yaml"))["fixes"]

def git(*args, cwd=None):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()

for fix in fixes:
    repo, pr = fix["repo"], fix["pr"]
    clone = os.path.join(dest, "clones", repo.replace("/", "-"))
    if not os.path.isdir(clone):
        print(f"cloning {repo} ...", flush=True)
        git("clone", "--quiet", "--no-checkout", f"https://github.com/{repo}.git", clone)
    commit = fix.get("fix_commit")
    if not commit:
        found = git("log", "--all", "--format=%H", "--fixed-strings", f"--grep=(#{pr})", "-1", cwd=clone)
        if not found:
            git("fetch", "--quiet", "origin", f"pull/{pr}/head:refs/smallfix/pr{pr}", cwd=clone)
            head = git("rev-parse", f"refs/smallfix/pr{pr}", cwd=clone)
            found = git("log", "--all", "--merges", "--format=%H", "--ancestry-path", f"{head}..HEAD", "-1", cwd=clone) or head
        commit = found
    parent = fix.get("parent_commit") or git("rev-parse", f"{commit}^", cwd=clone)
    files = git("diff", "--name-only", parent, commit, cwd=clone).split()
    stat = git("diff", "--numstat", parent, commit, cwd=clone)
    lines = sum(int(a) + int(d) for a, d, _ in (l.split("\t") for l in stat.splitlines()) if a != "-")
    where = os.path.join(dest, f"{repo.replace('/', '-')}-pr{pr}")
    for name, rev in (("before", parent), ("after", commit)):
        path = os.path.join(where, name)
        if not os.path.isdir(path):
            git("worktree", "add", "--quiet", "--detach", os.path.abspath(path), rev, cwd=clone)
    flag = "" if lines <= 10 else "  (more than 10 lines)"
    print(f"{repo} #{pr} {fix['family']}: fix {commit[:12]} parent {parent[:12]} "
          f"{len(files)} file(s), {lines} line(s){flag} -> {where}")
PY
