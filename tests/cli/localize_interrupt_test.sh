#!/usr/bin/env bash
# `smallfix localize --test CMD` stopped with SIGINT: it exits 130 at once and the test
# command's whole process group is gone (the command runs in its own group, so the terminal's
# Ctrl-C never reaches it: smallfix has to kill it).
set -euo pipefail
SMALLFIX="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
marker="sflocint_$$_$RANDOM"
mkdir -p "$work/repo"
printf 'x = 1\n' > "$work/repo/mod.py"

"$SMALLFIX" localize --repo "$work/repo" --test "sh -c 'sleep 600; echo $marker' & sleep 600 # $marker" \
  > "$work/out" 2> "$work/err" &
pid=$!
for _ in $(seq 100); do
  pgrep -f "$marker" | grep -vx "$pid" >/dev/null && break
  sleep 0.1
done
pgrep -f "$marker" | grep -vx "$pid" >/dev/null || { echo "the test command never started"; cat "$work/err"; exit 1; }
kill -INT "$pid"
start=$(date +%s)
set +e
wait "$pid"
rc=$?
set -e
[[ $rc -eq 130 ]] || { echo "expected exit 130 after SIGINT, got $rc"; cat "$work/err"; exit 1; }
(( $(date +%s) - start <= 10 )) || { echo "SIGINT took too long to stop the run"; exit 1; }
sleep 0.5
if pgrep -f "$marker" >/dev/null; then
  echo "processes of the test command survived SIGINT:"; pgrep -af "$marker"; pkill -9 -f "$marker"; exit 1
fi
echo "localize --test SIGINT ok"
