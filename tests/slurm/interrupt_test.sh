#!/usr/bin/env bash
# Ctrl-C (SIGINT) during `--runner slurm` validation, candidates validated two at a time
# (--jobs 2): smallfix exits 130 within seconds, every job of the run is cancelled (none left
# pending, running or completing in squeue; squeue -t all shows the soaking one CANCELLED), and
# no worktree, scratch directory or branch is left; the user's tree is untouched.
# tests/data/repair/interrupt_ckpt_writer: once a candidate fixes the crash, the test goes on
# to a 600 s soak (creating $CKPT_SOAK_FLAG), so its job runs until it is cancelled.
set -euo pipefail
source "$(dirname "$0")/slurm_lib.bash" "$@"

NAME=interrupt_ckpt_writer
make_repo "$NAME" "$work/repo"
repo="$work/repo"
flag="$work/soak.flag"
FAILING="CKPT_SOAK_FLAG=$flag python -m pytest -q -x tests/test_save.py::test_save_without_optimizer_then_soak"

"$SMALLFIX" repair --repo "$repo" --log "$DATA/$NAME/pytest.log" --test "$FAILING" --runner slurm \
  --jobs 2 --timeout 300 --json > "$work/int.json" 2> "$work/int.err" &
pid=$!
E2E_PIDS="$pid"
waited=0
until test -e "$flag" && prefix=$(job_prefix "$work/int.err") && test -n "$prefix" &&
  jobs_named "$prefix" running | grep -q -- "-c[0-9]* "; do
  kill -0 "$pid" 2> /dev/null || { cat "$work/int.err"; fail "smallfix ended before a candidate soaked"; }
  sleep 0.2
  waited=$((waited + 1))
  test "$waited" -lt 450 || { cat "$work/int.err"; squeue -t all; fail "no candidate's job soaked within 90 s"; }
done
echo "running before SIGINT:"
jobs_named "$prefix" running
test -n "$(ls -A "$repo/.git/worktrees" 2> /dev/null)" || fail "no worktree during validation?"
sent=$(date +%s.%N)
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
took=$("$PY" -c "import sys, time; print(round(time.time() - float(sys.argv[1]), 1))" "$sent")
cat "$work/int.err" >&2
echo "SIGINT: exit $rc after $took s"
test "$rc" = 130 || fail "expected exit 130, got $rc"
"$PY" -c "import sys; sys.exit(0 if float(sys.argv[1]) < 20 else 1)" "$took" || fail "took $took s to exit"
grep -q "interrupted; workspaces removed" "$work/int.err" || fail "no 'interrupted' message"
left=$(jobs_named "$prefix" pending,running,completing,configuring,suspended)
test -z "$left" || fail "jobs left in squeue: $left"
echo "squeue -t all after SIGINT:"
jobs_named "$prefix" all | tee "$work/after.txt"
grep -q " CANCELLED " "$work/after.txt" || fail "the soaking candidate's job was not cancelled"
assert_no_process "test_save_without_optimizer_then_soak"
assert_untouched "$repo"
echo "slurm interrupt ok"
