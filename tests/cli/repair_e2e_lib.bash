# Helpers shared by the `smallfix repair` end-to-end tests (tests/cli/repair_*_test.sh).
# Sourced, not run: `source "$(dirname "$0")/repair_e2e_lib.bash" "$@"` with the smallfix binary
# and the source tree as arguments, the way CTest calls every driver.
#
# It makes a temporary directory `$work` (removed on exit), points TMPDIR for smallfix at
# `$work/tmp` so that the scratch directories smallfix makes can be checked without racing other
# runs of smallfix on the machine, and offers:
#   make_repo NAME DEST       copy tests/data/repair/NAME/repo to DEST, git init and commit it
#   assert_untouched REPO     clean `git status`, no smallfix-* worktree or branch, no scratch left
#   assert_no_process MARKER  no process whose command line holds MARKER
#   json FILE PYEXPR          print a Python expression over the JSON in FILE (bound to `d`)
#   print_timing NAME FILE    echo stats.first_plausible_seconds and stats.reproduction_seconds
#   fail MESSAGE              print and exit 1

SMALLFIX="$1"
SRC="$2"
DATA="$SRC/tests/data/repair"
PY=/usr/bin/python3
test -x "$SMALLFIX" || { echo "smallfix binary $SMALLFIX is missing" >&2; exit 1; }

work=$(mktemp -d)
export TMPDIR="$work/tmp"
mkdir -p "$TMPDIR"
# The test's own pytest runs must not write caches into the repos they check.
export PYTHONDONTWRITEBYTECODE=1
e2e_cleanup() {
  # A failed assertion may leave a background smallfix behind; end only the ones this test started.
  local pid
  for pid in ${E2E_PIDS:-}; do kill -KILL "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap e2e_cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

make_repo() {
  local name="$1" dest="$2"
  cp -r "$DATA/$name/repo" "$dest"
  git -C "$dest" init -q -b main
  git -C "$dest" add -A
  git -C "$dest" -c user.name=e2e -c user.email=e2e@example.com commit -qm "buggy"
}

assert_untouched() {
  local repo="$1"
  local status worktrees branches scratch
  status=$(git -C "$repo" status --porcelain --untracked-files=all)
  test -z "$status" || fail "the user's tree changed: $status"
  worktrees=$(git -C "$repo" worktree list --porcelain | grep -c '^worktree ' || true)
  test "$worktrees" = 1 || fail "worktrees left: $(git -C "$repo" worktree list)"
  test -z "$(ls -A "$repo/.git/worktrees" 2>/dev/null)" || fail "worktree records left: $(ls "$repo/.git/worktrees")"
  branches=$(git -C "$repo" branch --list 'smallfix-*')
  test -z "$branches" || fail "branches left: $branches"
  scratch=$(cd "$TMPDIR" && ls -d smallfix-* 2>/dev/null || true)
  test -z "$scratch" || fail "scratch directories left in TMPDIR: $scratch"
}

assert_no_process() {
  local marker="$1" left
  # pgrep -f matches this shell's own command line only if it holds the marker; it does not.
  left=$(pgrep -af -- "$marker" || true)
  test -z "$left" || fail "processes left behind: $left"
}

json() {
  "$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

print_timing() {
  local name="$1" file="$2"
  echo "TIMING $name: first plausible patch after $(json "$file" 'round(d["stats"]["first_plausible_seconds"], 1)') s;" \
    "one run of the failing test $(json "$file" 'round(d["stats"]["reproduction_seconds"], 1)') s;" \
    "whole repair $(json "$file" 'round(d["stats"]["seconds"], 1)') s;" \
    "$(json "$file" 'd["stats"]["validated"]') of $(json "$file" 'd["stats"]["candidates"]') candidate(s) validated"
}

# Writes the diff of the first plausible candidate to $2 and prints its template id.
first_plausible_diff() {
  "$PY" - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
plausible = [c for c in d["candidates"] if c["validation"]["status"] == "plausible"]
assert plausible, [(c["template"], c["validation"]["status"]) for c in d["candidates"]]
open(sys.argv[2], "w").write(plausible[0]["diff"])
print(plausible[0]["template"])
PY
}
