#!/usr/bin/env bash
# With --jobs 2 the two best-ranked candidates run as jobs side by side; once the first is
# plausible the second, still running (its test hangs), is scancel'led: squeue -t all shows
# its job CANCELLED, the report says skipped, and nothing is left running.
# The repo (make_ckpt_repo): under the first candidate (return early) tests/test_resume.py finds
# no checkpoint and passes; under the second (skip the optimizer's entry) it waits forever for
# the optimizer entry.
set -euo pipefail
source "$(dirname "$0")/slurm_lib.bash" "$@"

repo="$work/repo"
make_ckpt_repo "$repo"
set +e
"$SMALLFIX" repair --repo "$repo" --site ckpt/save.py:6 \
  --symptom "AttributeError: 'NoneType' object has no attribute 'state_dict'" \
  --test "python -m pytest -q -x tests/test_resume.py" --runner slurm --jobs 2 --timeout 120 --json \
  > "$work/cancel.json" 2> "$work/cancel.err"
rc=$?
set -e
cat "$work/cancel.err" >&2
test "$rc" = 0 || fail "expected exit 0, got $rc"
"$PY" - "$work/cancel.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
first, second = d["candidates"][0], d["candidates"][1]
assert first["template"] == "guard.none-attribute-return", first["template"]
assert first["validation"]["status"] == "plausible", first["validation"]
assert second["validation"]["status"] == "skipped", second["validation"]
assert second["validation"]["seconds"] < 60, second["validation"]
PY
prefix=$(job_prefix "$work/cancel.err")
jobs_named "$prefix" all | tee "$work/jobs.txt"
grep -q " $prefix-c1 COMPLETED " "$work/jobs.txt" || fail "c1's job did not complete"
grep -q " $prefix-c2 CANCELLED " "$work/jobs.txt" || fail "c2's job was not cancelled"
test -z "$(jobs_named "$prefix" pending,running,completing)" || fail "jobs left running"
assert_no_process "tests/test_resume.py"
assert_untouched "$repo"
echo "slurm cancel lower-ranked ok"
