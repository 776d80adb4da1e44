#!/usr/bin/env bash
# Two ranks, warm (the default): each candidate's ranks share one network sandbox, so they
# rendezvous on its loopback and the 2-rank compat bug tests/data/repair/compat_sp_reduce_scatter
# is repaired offline, while no rank reaches a server on the host's loopback and none sees a
# secret (tests/cli/sandbox_recorder.py records every rank of every run).
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"
source "$(dirname "$0")/sandbox_lib.bash"

NAME=compat_sp_reduce_scatter
FAILING="python -m pytest -q -x tests/test_comm.py::test_reduce_scatter_sums_and_shards"
export_secrets
start_host_server
repo="$work/repo"
make_recording_repo "$NAME" "$repo" "$work/record"
set +e
"$SMALLFIX" repair --repo "$repo" --log "$DATA/$NAME/ci.log" --test "$FAILING" --test "python -m pytest -q tests" \
  --world-size 2 --timeout 120 --json > "$work/out.json" 2> "$work/err"
rc=$?
set -e
cat "$work/err" >&2
test "$rc" = 0 || fail "expected exit 0 (a plausible patch found offline), got $rc"
check_records "$work/record" "$repo" \
  'all(x["secrets"] == [] and x["parent_secrets"] == [] for x in r)' \
  '{x["rank"] for x in r if kind(x) == "candidate"} == {"0", "1"}' \
  'all(x["network"] == "connected" for x in r if kind(x) == "unpatched")' \
  'all(x["network"].startswith("refused") for x in r if kind(x) == "candidate")'
"$PY" - "$work/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["stats"]["warm"] and d["stats"]["reproduced"], d["stats"]
assert d["sandbox"]["network"]["candidates"] is False, d["sandbox"]
assert "GITHUB_TOKEN" in d["sandbox"]["withheld_env"], d["sandbox"]
c = next(c for c in d["candidates"] if c["validation"]["status"] == "plausible")
assert c["template"].startswith("compat."), c["template"]
PY
assert_untouched "$repo"
echo "2 ranks, warm, offline and without secrets ok"
