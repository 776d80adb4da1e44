#!/usr/bin/env bash
# Bot runs at once: three `smallfix bot --dry-run` runs for one patchable issue. A and B share one
# --checkout, the clone they fetch into, check out and commit in: B says that it waits and starts
# once A is done. C, with a temporary clone, starts at once beside them. All three find the patch
# (exit 0, the commit they would push), and the kept clone holds no worktree and no smallfix-*
# branch afterwards.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"
source "$(dirname "$0")/bot_lib.bash"

BUG=param-cast-str-env
make_remote "$BUG"
"$PY" - "$BENCH/$BUG" "file://$work/git/remote.git" "$work/git/remote.git" > "$work/seed.json" <<'PY'
import json, sys, yaml
bug = yaml.safe_load(open(sys.argv[1] + "/bug.yaml"))
print(json.dumps({"prefix": "/api/v3",
                  "repos": {"acme/launch": {"default_branch": "main", "clone_url": sys.argv[2], "git_dir": sys.argv[3]}},
                  "issues": {"acme/launch": [
                      {"number": 1, "title": bug["title"], "body": open(sys.argv[1] + "/issue.md").read(), "labels": ["bug"]}]}}))
PY
start_github "$(cat "$work/seed.json")"

start_bot() {  # start_bot NAME ARGS...: in the background, its pid in $bot_pid
  local name="$1"
  shift
  "$SMALLFIX" bot --github acme/launch --api "$API" --timeout 120 --issue 1 --dry-run "$@" \
    > "$work/$name.out" 2> "$work/$name.err" &
  bot_pid=$!
  E2E_PIDS="${E2E_PIDS:-} $bot_pid"
}

start_bot a --checkout "$work/checkout"
pid_a=$bot_pid
# A holds the checkout once it works on the issue.
for _ in $(seq 600); do
  grep -q "issue #1:" "$work/a.err" 2> /dev/null && break
  kill -0 "$pid_a" 2> /dev/null || break
  sleep 0.2
done
grep -q "issue #1:" "$work/a.err" || fail "run A did not reach the issue: $(cat "$work/a.err")"
start_bot b --checkout "$work/checkout"
pid_b=$bot_pid
start_bot c
pid_c=$bot_pid

for name in a b c; do
  pid_var="pid_$name"
  rc=0
  wait "${!pid_var}" || rc=$?
  test "$rc" = 0 || fail "run $name: exit $rc: $(cat "$work/$name.err")"
  grep -q "^#1: would push commit [0-9a-f]\{12\} to branch smallfix/issue-1 of file://" "$work/$name.out" ||
    fail "run $name found no patch: $(cat "$work/$name.out")"
  echo "run $name: exit 0, $(grep -o 'would push commit [0-9a-f]*' "$work/$name.out")"
done
grep -q "waiting for another smallfix bot run that is using the checkout $work/checkout to finish" "$work/b.err" ||
  fail "run B did not say that it waits: $(cat "$work/b.err")"
! grep -q "waiting for another" "$work/c.err" || fail "run C (its own clone) waited"
echo "run B: $(grep -o 'waiting for another.*' "$work/b.err")"

test "$(git -C "$work/checkout" worktree list --porcelain | grep -c '^worktree ')" = 1 ||
  fail "worktrees left in the checkout: $(git -C "$work/checkout" worktree list)"
test -z "$(git -C "$work/checkout" branch --list 'smallfix-*')" || fail "branches left: $(git -C "$work/checkout" branch)"
test -z "$(remote_git branch --list 'smallfix/*')" || fail "a dry run pushed"
scratch=$(cd "$TMPDIR" && ls -d smallfix-* 2> /dev/null || true)
test -z "$scratch" || fail "scratch directories left in TMPDIR: $scratch"
echo "bot concurrent ok"
