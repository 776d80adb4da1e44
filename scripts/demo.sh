#!/usr/bin/env bash
# Repairs one bundled benchmark bug end to end, from its GitHub issue alone:
#   scripts/setup.sh && scripts/demo.sh [BUG_ID]
# Copies the bug's mini-project to a temporary git repo, shows the issue's failure, then
# runs `smallfix repair` with the project's tests: localization, candidates, validation in
# isolated worktrees, and the validated diff. Nothing outside the temporary copy changes.
set -euo pipefail
cd "$(dirname "$0")/.."
BUG="${1:-guard-none-grad-skip}"
DIR="benchmarks/smallfix/bugs/$BUG"
[[ -d "$DIR" ]] || { echo "demo: no bug $BUG under benchmarks/smallfix/bugs" >&2; exit 2; }
[[ -x build/smallfix ]] || { echo "demo: build/smallfix is missing; run scripts/setup.sh first" >&2; exit 2; }
# The project venv (scripts/setup.sh) runs the tests, as in scripts/test.sh: its python3 comes
# first on PATH, the default interpreter (a python3 elsewhere on PATH may lack torch).
export PATH="$PWD/.venv/bin:$PATH"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$DIR/project" "$work/repo"
git -C "$work/repo" init -q
git -C "$work/repo" add -A
git -C "$work/repo" -c user.name=demo -c user.email=demo@localhost commit -qm "buggy project"

field() { /usr/bin/python3 -c "import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); print(eval('d' + sys.argv[2]))" "$DIR/bug.yaml" "$1"; }
failing=$(field "['tests']['failing']")
passing=$(field "['tests']['passing']")
world=$(field "['world_size']")

echo "== the issue: $(field "['title']")"
sed -n '/^```/,/^```/p' "$DIR/issue.md" | tail -n 12
echo
echo "== smallfix repair --issue issue.md --test '$failing' --test '$passing' --world-size $world"
build/smallfix repair --repo "$work/repo" --issue "$DIR/issue.md" \
  --test "$failing" --test "$passing" --world-size "$world" --timeout 120
