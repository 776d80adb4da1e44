#!/usr/bin/env bash
# Warm and cold validation give the same outcome; --cold starts no warm server; a warm server
# that dies in the middle of a repair leaves the rest of it cold, with a note.
# tests/data/repair/guard_clip_frozen (see repair_guard_e2e_test.sh), repaired three times:
#   1. default: stats.warm is true, a guard is plausible, no note;
#   2. --cold: stats.warm is false, the same candidates with the same outcomes;
#   3. SMALLFIX_WARM_SERVER points at a wrapper of validators/warm/warm_server.py that SIGKILLs the
#      server after its first run (the reproduction): the candidates still validate (cold), the
#      outcomes are the same, stats.warm is false and a note says the runs went cold.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"

NAME=guard_clip_frozen
FAILING="python -m pytest -q -x tests/test_clip.py::test_clip_with_frozen_embedding"
ALL="python -m pytest -q tests"
make_repo "$NAME" "$work/repo"
repo="$work/repo"

repair() {
  local out="$1"
  shift
  local rc=0
  "$SMALLFIX" repair --repo "$repo" --issue "$DATA/$NAME/issue.md" --test "$FAILING" --test "$ALL" \
    --timeout 120 --json "$@" > "$out" 2> "$out.err" || rc=$?
  cat "$out.err" >&2
  test "$rc" = 0 || fail "$*: expected exit 0, got $rc"
  assert_untouched "$repo"
  print_timing "${out##*/}" "$out"
}

# Candidates and their outcomes, one line each.
outcomes() {
  json "$1" '"\n".join(c["template"] + " " + c["validation"]["status"] for c in d["candidates"])'
}

repair "$work/warm.json"
test "$(json "$work/warm.json" 'd["stats"]["warm"]')" = True || fail "the default run was not warm"
test -z "$(json "$work/warm.json" '"\n".join(n for n in d["notes"] if "warm" in n)')" \
  || fail "notes: $(json "$work/warm.json" 'd["notes"]')"
first_plausible_diff "$work/warm.json" "$work/warm.diff" | grep -q '^guard\.' || fail "no plausible guard"

repair "$work/cold.json" --cold
test "$(json "$work/cold.json" 'd["stats"]["warm"]')" = False || fail "--cold ran warm"
test "$(outcomes "$work/warm.json")" = "$(outcomes "$work/cold.json")" \
  || fail "warm and cold differ:
$(outcomes "$work/warm.json")
---
$(outcomes "$work/cold.json")"

cat > "$work/dying_server.py" <<PY
import importlib.util, os, signal, sys
spec = importlib.util.spec_from_file_location("warm_server", "$SRC/validators/warm/warm_server.py")
server = importlib.util.module_from_spec(spec)
spec.loader.exec_module(server)
supervise = server.supervise
def supervise_then_kill_the_server(*args):
    supervise(*args)
    os.kill(os.getppid(), signal.SIGKILL)
server.supervise = supervise_then_kill_the_server
server.main()
PY
SMALLFIX_WARM_SERVER="$work/dying_server.py" repair "$work/died.json"
test "$(json "$work/died.json" 'd["stats"]["warm"]')" = False || fail "stats.warm after the server died"
# The kill lands between two runs (the next connection is refused: "stopped answering") or
# after the server took the next run (its supervisor dies with it: "lost a run"); either way
# the runs after it are cold.
json "$work/died.json" '"\n".join(d["notes"])' | grep -Eq "warm server (stopped answering|lost a run).*cold" \
  || fail "no note about the dead server: $(json "$work/died.json" 'd["notes"]')"
test "$(outcomes "$work/warm.json")" = "$(outcomes "$work/died.json")" || fail "outcomes differ after the server died"
test "$(json "$work/died.json" 'd["stats"]["validated"]')" -ge 1 || fail "nothing validated after the server died"
assert_no_process "$work/dying_server.py"
echo "repair warm ok"
