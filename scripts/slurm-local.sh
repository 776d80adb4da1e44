#!/usr/bin/env bash
# A real one-node Slurm cluster on this machine, for smallfix's Slurm runner tests and for
# trying `smallfix repair --runner slurm` without a cluster. Debian's slurm-wlm and munge;
# runs as root (slurmd must start job steps as the submitting user).
#
#   scripts/slurm-local.sh start [--user NAME]   # start munge, slurmctld, slurmd; wait for the node
#   scripts/slurm-local.sh stop  [--user NAME]   # cancel the jobs and stop the daemons it started
#   scripts/slurm-local.sh status                # what runs; exit 0 when the node takes jobs
#   scripts/slurm-local.sh env                   # the export line that points clients at it
#
# Everything lives in $SLURM_LOCAL_DIR (default /tmp/slurm-local): slurm.conf, gres.conf, state,
# spool, logs. Clients find the cluster through SLURM_CONF: `eval "$(scripts/slurm-local.sh env)"`.
# The node has max(nproc, 4) CPUs (declared, not detected, so candidates can run side by side on
# a 2-core CI machine) and 4 fake GPUs: empty files as gres devices, so `--gres=gpu:N` and
# `--gpus-per-node=N` schedule and set CUDA_VISIBLE_DEVICES without a GPU.
# Start and stop are idempotent. With --user NAME, start records NAME and stop only stops the
# cluster when no recorded user is left, so two test runs sharing the machine do not stop it
# under each other.
set -euo pipefail

DIR="${SLURM_LOCAL_DIR:-/tmp/slurm-local}"
CONF="$DIR/slurm.conf"
HOST="$(hostname -s)"
GPUS=4
PARTITION=debug

log() { echo "slurm-local: $*" >&2; }
die() {
  log "$*"
  exit 1
}

need_root() {
  [[ $(id -u) -eq 0 ]] || die "must run as root (slurmd starts job steps as the submitting user)"
  local tool
  for tool in munged munge unmunge slurmctld slurmd sinfo scontrol; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool not found: install slurm-wlm and munge (scripts/setup.sh does)"
  done
}

# Pid of a daemon from its pid file when that process still runs.
daemon_pid() {
  local file="$DIR/$1.pid" pid
  [[ -f "$file" ]] || return 1
  pid=$(cat "$file")
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

munge_ok() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }

start_munge() {
  munge_ok && return 0
  mkdir -p /run/munge /var/lib/munge /var/log/munge /etc/munge
  chown munge:munge /run/munge /var/lib/munge /var/log/munge /etc/munge
  chmod 0755 /run/munge
  if [[ ! -s /etc/munge/munge.key ]]; then
    log "creating /etc/munge/munge.key"
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
  chown munge:munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
  runuser -u munge -- munged --force
  touch "$DIR/munged.ours"  # stop ends only a munged that this script started
  local i
  for i in $(seq 50); do
    munge_ok && return 0
    sleep 0.1
  done
  die "munge does not work: \`munge -n | unmunge\` fails (see /var/log/munge/munged.log)"
}

write_config() {
  local cpus memory_mb
  cpus=$(nproc)
  ((cpus < 4)) && cpus=4
  # Declared below what the machine has: slurmd refuses a node with less memory than configured.
  memory_mb=$(awk '/MemTotal/ { print int($2 / 1024 * 0.8) }' /proc/meminfo)
  mkdir -p "$DIR/state" "$DIR/spool" "$DIR/gpu"
  local i
  for ((i = 0; i < GPUS; i++)); do
    : > "$DIR/gpu/gpu$i"
  done
  cat > "$CONF" <<EOF
# Written by scripts/slurm-local.sh: a one-node test cluster.
ClusterName=smallfix-local
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
GresTypes=gpu
ReturnToService=2
# The declared CPUs win over the detected ones (see the header).
SlurmdParameters=config_overrides
MailProg=/bin/true
# A cancelled or timed-out job gets SIGTERM, then SIGKILL after this many seconds.
KillWait=5
# Finished jobs stay visible in \`squeue -t all\` and \`scontrol show job\` this long.
MinJobAge=600
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory_mb Gres=gpu:$GPUS State=UNKNOWN
PartitionName=$PARTITION Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
  # Without File= entries slurmd counts 0 GPUs and the node is invalid.
  echo "NodeName=$HOST Name=gpu File=$DIR/gpu/gpu[0-$((GPUS - 1))]" > "$DIR/gres.conf"
}

node_state() { SLURM_CONF="$CONF" sinfo -h -N -n "$HOST" -o %T 2>/dev/null | head -n1; }

wait_for_node() {
  local i state=""
  for i in $(seq 60); do
    state=$(node_state)
    case "$state" in
      idle | mixed | allocated | completing) return 0 ;;
      down* | drain* | fail* | unknown*)
        # A node that registered before munge worked stays down until resumed.
        SLURM_CONF="$CONF" scontrol update nodename="$HOST" state=resume >/dev/null 2>&1 || true
        ;;
    esac
    sleep 0.5
  done
  die "the node did not become idle within 30 s (state: ${state:-none}); see $DIR/slurmctld.log and $DIR/slurmd.log"
}

start() {
  local user="${1:-}"
  need_root
  mkdir -p "$DIR/users"
  [[ -n "$user" ]] && touch "$DIR/users/$(echo "$user" | tr '/ ' '__')"
  if daemon_pid slurmctld >/dev/null && daemon_pid slurmd >/dev/null && munge_ok; then
    wait_for_node
    log "already running (SLURM_CONF=$CONF)"
    return 0
  fi
  start_munge
  if ! daemon_pid slurmctld >/dev/null; then
    # A fresh start: no jobs or node state from an earlier cluster.
    rm -rf "$DIR/state" "$DIR/spool"
    write_config
    SLURM_CONF="$CONF" slurmctld -f "$CONF" -i
  fi
  for i in $(seq 50); do
    SLURM_CONF="$CONF" scontrol ping >/dev/null 2>&1 && break
    sleep 0.2
  done
  SLURM_CONF="$CONF" scontrol ping >/dev/null 2>&1 || die "slurmctld did not answer; see $DIR/slurmctld.log"
  daemon_pid slurmd >/dev/null || SLURM_CONF="$CONF" slurmd -f "$CONF" -N "$HOST"
  wait_for_node
  log "running: partition $PARTITION, node $HOST ($(node_state)), $GPUS fake GPUs; SLURM_CONF=$CONF"
}

stop_daemon() {
  local name="$1" pid i
  pid=$(daemon_pid "$name") || return 0
  kill "$pid" 2>/dev/null || true
  for i in $(seq 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

stop() {
  local user="${1:-}"
  if [[ -n "$user" ]]; then
    rm -f "$DIR/users/$(echo "$user" | tr '/ ' '__')"
    if [[ -n "$(ls -A "$DIR/users" 2>/dev/null)" ]]; then
      log "still used by: $(ls "$DIR/users" | tr '\n' ' '); left running"
      return 0
    fi
  fi
  if daemon_pid slurmctld >/dev/null; then
    SLURM_CONF="$CONF" scancel --full --quiet --user="$(id -un)" 2>/dev/null || true
  fi
  stop_daemon slurmd
  stop_daemon slurmctld
  if [[ -f "$DIR/munged.ours" ]]; then
    local pid
    pid=$(cat /run/munge/munged.pid 2>/dev/null || true)
    [[ -n "$pid" ]] && kill "$pid" 2>/dev/null || true
    rm -f "$DIR/munged.ours"
  fi
  rm -rf "$DIR/state" "$DIR/spool" "$DIR/users"
  log "stopped (logs kept in $DIR)"
}

status() {
  local ok=0
  if munge_ok; then echo "munge: ok"; else echo "munge: not working"; ok=1; fi
  local name
  for name in slurmctld slurmd; do
    if pid=$(daemon_pid "$name"); then echo "$name: running (pid $pid)"; else echo "$name: not running"; ok=1; fi
  done
  if ((ok == 0)); then
    local state
    state=$(node_state)
    echo "node $HOST: ${state:-unknown}"
    case "$state" in idle | mixed | allocated | completing) ;; *) ok=1 ;; esac
    SLURM_CONF="$CONF" sinfo 2>/dev/null || true
  fi
  echo "export SLURM_CONF=$CONF"
  return $ok
}

command="${1:-}"
shift || true
user=""
if [[ "${1:-}" == --user ]]; then
  user="${2:?--user needs a name}"
fi
case "$command" in
  start) start "$user" ;;
  stop) stop "$user" ;;
  status) status ;;
  env) echo "export SLURM_CONF=$CONF" ;;
  *)
    echo "usage: $0 start|stop [--user NAME] | status | env" >&2
    exit 2
    ;;
esac
