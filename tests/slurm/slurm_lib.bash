# Helpers for the `--runner slurm` end-to-end tests (tests/slurm/*_test.sh). Sourced with the
# smallfix binary and the source tree as arguments; adds to tests/cli/repair_e2e_lib.bash:
#   SLURM_CONF pointed at scripts/slurm-local.sh's cluster; exit 77 (skip) when it is not up
#   our_jobs STATES           "ID NAME STATE REASON" of jobs named $SLURM_PREFIX-*, in STATES
#   job_prefix FILE           the job-name prefix a repair printed on stderr
#   wait_for_job PREFIX STATE wait (up to 60 s) until a job named PREFIX-* is in STATE
source "$(dirname "${BASH_SOURCE[0]}")/../cli/repair_e2e_lib.bash" "$@"

eval "$(bash "$SRC/scripts/slurm-local.sh" env)"
export SLURM_CONF
if ! bash "$SRC/scripts/slurm-local.sh" status > "$work/cluster.txt" 2>&1; then
  cat "$work/cluster.txt"
  echo "SKIP: the local Slurm cluster is not running"
  exit 77
fi

# squeue's view: -t all also lists jobs that ended (for MinJobAge after they did).
jobs_named() {
  local prefix="$1" states="$2"
  squeue -h -t "$states" -o "%i %j %T %r" | awk -v p="$prefix-" 'index($2, p) == 1'
}

job_prefix() {
  sed -n 's/.*Slurm jobs are named \(smallfix-[0-9a-f]*\)-\*.*/\1/p' "$1" | head -n1
}

wait_for_job() {
  local prefix="$1" state="$2" i
  for i in $(seq 300); do
    jobs_named "$prefix" "$state" | grep -q . && return 0
    sleep 0.2
  done
  return 1
}
