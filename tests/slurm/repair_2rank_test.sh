#!/usr/bin/env bash
# `--runner slurm --world-size 2` repairs a 2-rank benchmark bug: the failing test reproduces as a
# 2-task Slurm job, a candidate is plausible, and every job the repair submitted is visible in
# `squeue -t all` (named smallfix-<run>-reproduce / -c<N>, ended COMPLETED or FAILED, none left
# pending or running). The same repair with the local torchrun runner gives the same patch; both
# times to the first plausible patch are printed (TIMING lines).
set -euo pipefail
source "$(dirname "$0")/slurm_lib.bash" "$@"

BUG=compat-reduce-scatter-tensor
BUGDIR="$SRC/benchmarks/smallfix/bugs/$BUG"
FAILING="python -m pytest -q -x tests/test_grad_partition.py::test_reduce_scatter_gradients"
ALL="python -m pytest -q tests"
repo="$work/repo"
cp -r "$BUGDIR/project" "$repo"
git -C "$repo" init -q -b main
git -C "$repo" add -A
git -C "$repo" -c user.name=e2e -c user.email=e2e@example.com commit -qm buggy

set +e
"$SMALLFIX" repair --repo "$repo" --issue "$BUGDIR/issue.md" --test "$FAILING" --test "$ALL" \
  --runner slurm --world-size 2 --slurm-gpus-per-node 1 --timeout 120 --json > "$work/slurm.json" 2> "$work/slurm.err"
rc=$?
set -e
cat "$work/slurm.err" >&2
test "$rc" = 0 || fail "slurm: expected exit 0, got $rc"
template=$(first_plausible_diff "$work/slurm.json" "$work/slurm.diff")
echo "plausible on Slurm: $template"
"$PY" - "$work/slurm.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["stats"]["reproduced"], d["stats"]
c = next(c for c in d["candidates"] if c["validation"]["status"] == "plausible")
stages = {s["name"]: s for s in c["validation"]["stages"]}
assert stages["test"]["status"] == "passed" and "slurm job" in stages["test"]["detail"], stages["test"]
assert stages["regression"]["status"] == "passed", stages["regression"]
PY

prefix=$(job_prefix "$work/slurm.err")
test -n "$prefix" || fail "the repair did not say how its jobs are named"
echo "squeue -t all, jobs named $prefix-*:"
jobs_named "$prefix" all | tee "$work/jobs.txt"
grep -q " $prefix-reproduce FAILED " "$work/jobs.txt" || fail "no FAILED reproduction job in squeue -t all"
grep -q " $prefix-c[0-9]* COMPLETED " "$work/jobs.txt" || fail "no COMPLETED candidate job in squeue -t all"
test -z "$(jobs_named "$prefix" pending,running,completing)" || fail "jobs left: $(jobs_named "$prefix" pending,running,completing)"
# Two tasks per job, and the fake GPU asked for by gres.
id=$(awk -v p="$prefix-reproduce" '$2 == p { print $1; exit }' "$work/jobs.txt")
scontrol show job "$id" > "$work/job.txt"
grep -q "NumTasks=2" "$work/job.txt" || fail "the job did not have 2 tasks: $(cat "$work/job.txt")"
grep -Eq "gres/gpu(:[a-z0-9]+)?=1|gpu:1|gpu=1" "$work/job.txt" || fail "the job did not ask for a GPU: $(cat "$work/job.txt")"
assert_untouched "$repo"

# The same bug with the local torchrun runner, for the time to the first plausible patch.
"$SMALLFIX" repair --repo "$repo" --issue "$BUGDIR/issue.md" --test "$FAILING" --test "$ALL" \
  --runner torchrun --world-size 2 --timeout 120 --json > "$work/local.json" 2> "$work/local.err" \
  || { cat "$work/local.err"; fail "torchrun runner: no plausible patch"; }
first_plausible_diff "$work/local.json" "$work/local.diff" > /dev/null
cmp -s "$work/slurm.diff" "$work/local.diff" || fail "Slurm and the torchrun runner found different patches"
print_timing "$BUG slurm" "$work/slurm.json"
print_timing "$BUG torchrun" "$work/local.json"
echo "slurm 2-rank repair ok"
