#!/usr/bin/env bash
# A candidate that deadlocks in a collective is killed at its time limit and the run goes on.
# tests/data/repair/deadlock_grad_bucket: on 2 ranks, rank 1's gradient bucket is empty
# (pending is None) and flush_bucket crashes iterating it. The top-ranked candidate,
# guard.none-return, makes rank 1 return before the all-reduce that rank 0 is waiting in; rank 1
# then waits in the test's dist.barrier() and rank 0 in dist.all_reduce(): a real gloo deadlock
# (both processes alive, so gloo never sees a closed connection). With --timeout 45 it must be
# reported as "timeout", its process groups killed, and the next candidate (guard.none-or-empty,
# which keeps every rank in the all-reduce) validated and found plausible. Afterwards no process of
# the run is left (every test command carries a unique -k marker that pgrep can find), and no
# worktree, branch or scratch directory.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"

NAME=deadlock_grad_bucket
# Seconds per stage: long enough for a healthy 2-rank pytest run on a loaded 2-core machine.
LIMIT=45
MARKER="sfe2e_deadlock_$$_$RANDOM"
FAILING="python -m pytest -q -x tests/test_bucket.py::test_flush_when_only_rank0_has_grads -k 'not $MARKER'"
ALL="python -m pytest -q tests -k 'not $MARKER'"
make_repo "$NAME" "$work/repo"
repo="$work/repo"

start=$(date +%s)
set +e
"$SMALLFIX" repair --repo "$repo" --issue "$DATA/$NAME/issue.md" --test "$FAILING" --test "$ALL" \
  --runner torchrun --world-size 2 --timeout "$LIMIT" --json > "$work/out.json" 2> "$work/err"
rc=$?
set -e
elapsed=$(( $(date +%s) - start ))
cat "$work/err" >&2
echo "repair took ${elapsed} s"
test "$rc" = 0 || fail "expected exit 0 (the second candidate is plausible), got $rc"

"$PY" - "$work/out.json" "$LIMIT" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
limit = float(sys.argv[2])
cands = sorted(d["candidates"], key=lambda c: c["rank"])
first, second = cands[0], cands[1]
print("candidate 1:", first["template"], first["validation"]["status"], round(first["validation"]["seconds"], 1), "s")
print("candidate 2:", second["template"], second["validation"]["status"], round(second["validation"]["seconds"], 1), "s")
assert first["template"] == "guard.none-return", first["template"]
assert first["validation"]["status"] == "timeout", first["validation"]
test = [s for s in first["validation"]["stages"] if s["name"] == "test"]
assert test and test[0]["status"] == "timeout", first["validation"]["stages"]
assert "timed out" in json.dumps(test[0]), test[0]
# Killed at the limit: not much sooner, not much later (SIGTERM, then SIGKILL after a grace).
assert limit - 1 <= test[0]["seconds"] <= limit + 25, test[0]
assert second["template"] == "guard.none-or-empty", second["template"]
assert second["validation"]["status"] == "plausible", second["validation"]
assert d["stats"]["validated"] == 2, d["stats"]
PY
grep -q "guard.none-return: timeout" "$work/err" || fail "no progress line for the timed-out candidate"

# Nothing of the run is left: no rank still waiting in a collective, no worktree, no scratch.
sleep 1
assert_no_process "$MARKER"
assert_untouched "$repo"
print_timing deadlock "$work/out.json"
echo "repair deadlock ok"
