#!/usr/bin/env bash
# Slurm jobs carry no secret: sbatch hands the job its own environment (--export=ALL), which
# smallfix gives it without the secret-looking variables. tests/data/repair/compat_sp_reduce_scatter
# (fails only with 2 ranks) gets the recording conftest.py of tests/cli/sandbox_recorder.py; with
# a dozen secrets set, GITHUB_TOKEN among them, `--runner slurm --world-size 2 --pass-env HF_TOKEN`
# repairs it, and every rank of every job (reproduction and candidates) saw HF_TOKEN and nothing
# else secret, nor did the shell that ran it; the report names what was withheld and says the
# jobs kept the nodes' network.
set -euo pipefail
source "$(dirname "$0")/slurm_lib.bash" "$@"
source "$SRC/tests/cli/sandbox_lib.bash"

NAME=compat_sp_reduce_scatter
FAILING="python -m pytest -q -x tests/test_comm.py::test_reduce_scatter_sums_and_shards"
export_secrets
start_host_server
repo="$work/repo"
make_recording_repo "$NAME" "$repo" "$work/record"
set +e
"$SMALLFIX" repair --repo "$repo" --log "$DATA/$NAME/ci.log" --test "$FAILING" --runner slurm --world-size 2 \
  --pass-env HF_TOKEN --timeout 120 --json > "$work/out.json" 2> "$work/err"
rc=$?
set -e
cat "$work/err" >&2
test "$rc" = 0 || fail "expected exit 0, got $rc"
check_records "$work/record" "$repo" \
  'all(x["secrets"] == ["HF_TOKEN"] and x["parent_secrets"] == ["HF_TOKEN"] for x in r)' \
  '{x["rank"] for x in r} == {"0", "1"}' \
  '{kind(x) for x in r} == {"unpatched", "candidate"}'
"$PY" - "$work/out.json" "$SECRET_NAMES" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
withheld = set(d["sandbox"]["withheld_env"])
assert set(sys.argv[2].split()) - {"HF_TOKEN"} <= withheld and "HF_TOKEN" not in withheld, withheld
assert d["sandbox"]["network"]["slurm"], d["sandbox"]
PY
for name in $SECRET_NAMES; do
  if grep -rq "${!name}" "$work/out.json" "$work/err"; then fail "the value of $name was printed"; fi
done
assert_untouched "$repo"
echo "slurm jobs without secrets ok"
