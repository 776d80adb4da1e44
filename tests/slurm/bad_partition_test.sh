#!/usr/bin/env bash
# A partition the cluster does not have is a clear error (sbatch's own words, exit 2) that
# leaves no job, no worktree and the user's tree untouched; from the flag and from
# .smallfix.yaml alike; `bench --runner slurm` passes its --slurm-* flags to the jobs too (the
# bug's result is that error). Also: --slurm-* flags without --runner slurm are refused.
set -euo pipefail
source "$(dirname "$0")/slurm_lib.bash" "$@"

NAME=interrupt_ckpt_writer
make_repo "$NAME" "$work/repo"
repo="$work/repo"
FAILING="python -m pytest -q -x tests/test_save.py::test_save_without_optimizer"

expect_bad_partition() {
  local label="$1"
  shift
  set +e
  "$SMALLFIX" repair --repo "$repo" --log "$DATA/$NAME/pytest.log" --test "$FAILING" --runner slurm "$@" \
    > "$work/$label.out" 2> "$work/$label.err"
  local rc=$?
  set -e
  cat "$work/$label.err" >&2
  test "$rc" = 2 || fail "$label: expected exit 2, got $rc"
  grep -q "^smallfix: slurm: sbatch refused the job: invalid partition specified: nosuchpart" "$work/$label.err" \
    || fail "$label: no clear error"
  assert_untouched "$repo"
}

expect_bad_partition flag --slurm-partition nosuchpart

# The same from the repo's .smallfix.yaml (committed, so the tree stays clean).
printf 'slurm:\n  partition: nosuchpart\n' > "$repo/.smallfix.yaml"
git -C "$repo" add .smallfix.yaml
git -C "$repo" -c user.name=e2e -c user.email=e2e@example.com commit -qm config
expect_bad_partition yaml

set +e
"$SMALLFIX" repair --repo "$repo" --log "$DATA/$NAME/pytest.log" --test "$FAILING" --slurm-partition debug \
  > /dev/null 2> "$work/noslurm.err"
rc=$?
set -e
test "$rc" = 2 || fail "--slurm-partition without --runner slurm: expected exit 2, got $rc"
grep -q "need --runner slurm" "$work/noslurm.err" || fail "no clear error: $(cat "$work/noslurm.err")"
"$SMALLFIX" bench --runner slurm --slurm-partition nosuchpart --bug compat-reduce-scatter-tensor \
  --json "$work/bench.json" > "$work/bench.out" 2>&1 || true
"$PY" - "$work/bench.json" <<'PY'
import json, sys
bug = json.load(open(sys.argv[1]))["bugs"][0]
assert bug["outcome"] == "error", bug
assert "invalid partition specified: nosuchpart" in bug["error"], bug["error"]
PY
echo "slurm bad partition ok"
