#!/usr/bin/env bash
# A hung candidate is killed by Slurm's time limit and reported as a timeout (not a test
# failure); the next candidate is plausible. The repo (make_ckpt_repo): save_checkpoint() calls
# optimizer.state_dict() with optimizer=None; tests/test_save.py waits for the checkpoint file
# the way a resuming rank would. The top-ranked candidate (return early when optimizer is None)
# never writes the file, so its test waits forever; the second (skip the optimizer's entry) passes.
# --timeout 20 gives the jobs --time=1 (Slurm counts whole minutes and checks limits about
# every 30 s, so the hang is killed 60 to 90 s after it starts); with --jobs 2 the second
# candidate runs beside it, and the repair waits for the better-ranked one's verdict.
set -euo pipefail
source "$(dirname "$0")/slurm_lib.bash" "$@"

repo="$work/repo"
make_ckpt_repo "$repo"

set +e
"$SMALLFIX" repair --repo "$repo" --site ckpt/save.py:6 \
  --symptom "AttributeError: 'NoneType' object has no attribute 'state_dict'" \
  --test "python -m pytest -q -x tests/test_save.py" --runner slurm --jobs 2 --timeout 20 --json \
  > "$work/hang.json" 2> "$work/hang.err"
rc=$?
set -e
cat "$work/hang.err" >&2
test "$rc" = 0 || fail "expected exit 0, got $rc"
"$PY" - "$work/hang.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
first, second = d["candidates"][0], d["candidates"][1]
assert first["template"] == "guard.none-attribute-return", first["template"]
v = first["validation"]
assert v["status"] == "timeout", v
test = v["stages"][-1]
assert test["name"] == "test" and test["status"] == "timeout", test
assert "killed by Slurm's time limit (1 min, TIMEOUT)" in test["detail"], test["detail"]
assert v["seconds"] >= 55, v["seconds"]
assert second["validation"]["status"] == "plausible", second["validation"]
print("candidate 1: %s after %.0f s (%s); candidate 2: plausible" % (v["status"], v["seconds"], test["detail"]))
PY
prefix=$(job_prefix "$work/hang.err")
jobs_named "$prefix" all | tee "$work/jobs.txt"
grep -q " $prefix-c1 TIMEOUT TimeLimit" "$work/jobs.txt" || fail "c1's job did not end TIMEOUT in squeue -t all"
grep -q " $prefix-c2 COMPLETED " "$work/jobs.txt" || fail "c2's job did not complete"
test -z "$(jobs_named "$prefix" pending,running,completing)" || fail "jobs left running"
assert_no_process "tests/test_save.py"
assert_untouched "$repo"
echo "slurm hang timeout ok"
