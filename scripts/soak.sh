#!/usr/bin/env bash
# The soak: the small-fix benchmark (`smallfix bench`, 47 bugs) ROUNDS times back to back, and
# what each round leaves behind. Nothing may be left: no process, no worktree, no scratch
# directory, and the open files of the bench process must not grow over a round.
#
#   scripts/soak.sh [ROUNDS] [OUT_DIR]      (defaults: 3, benchmarks/results/soak)
#   SMALLFIX=path/to/smallfix  BENCH_ARGS="--jobs 2"  SAMPLE_SECONDS=2
#
# Each round runs with its own TMPDIR (every scratch directory and worktree of the run lives
# there) and a marker in its environment. Counted after each round, once the bench has exited:
#   processes  those whose environment holds the marker, whose working directory is under that
#              TMPDIR, or whose command line names it (test processes, warm servers, ranks);
#   worktrees  worktree records in any repository left under TMPDIR, and smallfix-* worktree
#              records and branches in this checkout;
#   temp       entries left in the round's TMPDIR: smallfix's own (smallfix-*) and others (what
#              the tests themselves leave there: pytest's basetemp pytest-of-USER, which pytest
#              keeps on purpose, torch's torchinductor_USER cache).
# While a round runs, every SAMPLE_SECONDS: the bench process's open descriptors
# (/proc/PID/fd) and the marked processes. Output in OUT_DIR: samples.csv, rounds.csv,
# bench-N.json (the benchmark's own results) and soak.md (the table).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3}
out=${2:-$root/benchmarks/results/soak}
SMALLFIX=${SMALLFIX:-$root/build/smallfix}
BENCH_ARGS=${BENCH_ARGS:---jobs 2}
SAMPLE_SECONDS=${SAMPLE_SECONDS:-2}
mkdir -p "$out"
work=$(mktemp -d /tmp/soak-work.XXXXXX)
trap 'rm -rf "$work"' EXIT

# Marked processes: the marker in the environment, the round's TMPDIR as cwd or in argv. Prints
# the count; the processes themselves on stderr.
marked() {
  python3 - "$1" "$2" "$$" <<'PY'
import os, sys
marker, tmp, me = sys.argv[1].encode(), sys.argv[2], {sys.argv[3], str(os.getpid())}
found = []
for pid in filter(str.isdigit, os.listdir("/proc")):
    if pid in me:
        continue
    try:
        environ = open(f"/proc/{pid}/environ", "rb").read()
        cmdline = open(f"/proc/{pid}/cmdline", "rb").read()
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        continue
    if marker in environ or cwd.startswith(tmp) or tmp.encode() in cmdline:
        name = cmdline.replace(bytes(1), b" ").decode(errors="replace")[:80]
        found.append(f"{pid}:{name}")
print(len(found))
if found:
    print("; ".join(found), file=sys.stderr)
PY
}

worktree_records() {  # records under $1's repositories, and smallfix ones in this checkout
  local n
  n=$(find "$1" -path '*/.git/worktrees/*' -maxdepth 6 -mindepth 1 -prune 2> /dev/null | wc -l)
  n=$((n + $(git -C "$root" worktree list --porcelain | grep -c '^worktree .*/smallfix-' || true)))
  echo $((n + $(git -C "$root" branch --list 'smallfix-*' | wc -l)))
}

echo "round,seconds,bugs,plausible,correct,fd_first,fd_max,fd_last,marked_max_during,processes_left,worktrees_left,smallfix_temp_left,other_temp_left" > "$out/rounds.csv"
echo "round,t,bench_fds,marked_processes" > "$out/samples.csv"
for round in $(seq "$rounds"); do
  dir="$work/tmp-$round"
  mkdir -p "$dir"
  marker="SMALLFIX_SOAK_MARK=soak$$x$round$RANDOM"
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  env "$marker" TMPDIR="$dir" nice -n 10 "$SMALLFIX" bench $BENCH_ARGS --json "$out/bench-$round.json" \
    > "$work/bench-$round.out" 2> "$work/bench-$round.err" &
  pid=$!
  fds=()
  marked_max=0
  while kill -0 "$pid" 2> /dev/null; do
    t=$(python3 -c "import sys, time; print(round(time.time() - float(sys.argv[1]), 1))" "$start")
    fd=$(ls /proc/"$pid"/fd 2> /dev/null | wc -l)
    m=$(marked "${marker#*=}" "$dir" 2> /dev/null)
    if [[ "$fd" -gt 0 ]]; then fds+=("$fd"); fi
    ((m > marked_max)) && marked_max=$m
    echo "$round,$t,$fd,$m" >> "$out/samples.csv"
    sleep "$SAMPLE_SECONDS"
  done
  rc=0
  wait "$pid" || rc=$?
  seconds=$(python3 -c "import sys, time; print(round(time.time() - float(sys.argv[1]), 1))" "$start")
  sleep 2  # let anything that would exit on its own do so
  left=$(marked "${marker#*=}" "$dir" 2> "$work/left-$round.txt")
  worktrees=$(worktree_records "$dir")
  own_left=$(ls -A "$dir" | grep -c '^smallfix' || true)
  other_left=$(($(ls -A "$dir" | wc -l) - own_left))
  read -r bugs plausible correct < <(python3 - "$out/bench-$round.json" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    bugs = d.get("bugs", [])
    print(len(bugs), sum(1 for b in bugs if b.get("plausible")), sum(1 for b in bugs if b.get("correct")))
except Exception as e:
    print("0 0 0")
PY
)
  fd_first=${fds[0]:-0}
  fd_last=${fds[-1]:-0}
  fd_max=$(printf '%s\n' "${fds[@]:-0}" | sort -n | tail -1)
  echo "$round,$seconds,$bugs,$plausible,$correct,$fd_first,$fd_max,$fd_last,$marked_max,$left,$worktrees,$own_left,$other_left" >> "$out/rounds.csv"
  echo "round $round: exit $rc, $seconds s, $plausible/$bugs plausible, fds first/max/last $fd_first/$fd_max/$fd_last, left: $left process(es), $worktrees worktree(s), $own_left smallfix and $other_left other temp entr(ies)"
  [[ "$left" == 0 ]] || echo "  left processes: $(cat "$work/left-$round.txt")"
  [[ "$own_left$other_left" == 00 ]] || echo "  left in TMPDIR: $(ls -A "$dir" | head -5 | tr '\n' ' ')"
  [[ "$rc" == 0 || "$rc" == 1 ]] || { echo "bench failed (exit $rc):"; tail -5 "$work/bench-$round.err"; }
done

python3 - "$out" <<'PY'
import csv, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(out + "/rounds.csv")))
lines = ["| round | s | bugs | plausible | correct | bench fds first / max / last | marked processes during (max) | processes left | worktrees left | smallfix temp entries left | other temp entries left |",
         "| ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |"]
for r in rows:
    lines.append(f"| {r['round']} | {r['seconds']} | {r['bugs']} | {r['plausible']} | {r['correct']} | "
                 f"{r['fd_first']} / {r['fd_max']} / {r['fd_last']} | {r['marked_max_during']} | "
                 f"{r['processes_left']} | {r['worktrees_left']} | {r['smallfix_temp_left']} | {r['other_temp_left']} |")
open(out + "/soak.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
