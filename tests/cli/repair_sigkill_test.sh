#!/usr/bin/env bash
# A run killed outright (SIGKILL: the OOM killer, a CI time limit) leaves its worktree registered
# in the user's repository; the next run sweeps it and succeeds, and a live run's worktree is
# never swept by a concurrent one.
# tests/data/repair/interrupt_ckpt_writer: once a candidate fixes the crash, the failing test
# goes on to a "soak" sleep of CKPT_SOAK_SECONDS (600 by default), so run A stays in validation.
#   1. A starts and reaches a candidate's soak.
#   2. B starts on the same repository with no soak: it finds the patch while A runs, and A's
#      worktrees are all still there afterwards (B swept nothing of a live run).
#   3. A gets SIGKILL: its test process dies with it (PR_SET_PDEATHSIG) but its worktrees stay
#      registered, as a killed run cannot clean up.
#   4. C starts with no soak: it finds the patch and its report says what it swept.
#   Then: no worktree, no smallfix branch or ref, no scratch directory, tracked files unchanged.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"

NAME=interrupt_ckpt_writer
make_repo "$NAME" "$work/repo"
repo="$work/repo"
tracked_before=$(git -C "$repo" ls-files -s | sha1sum)
TEST_ID="tests/test_save.py::test_save_without_optimizer_then_soak"
pytest_pattern() { echo "^(/[^ ]*/)?python3? -m pytest .*$1"; }

# 1. Run A, held in validation by the soak.
marker_a="sfe2e_sigkill_a_$$_$RANDOM"
flag="$work/soak-a.flag"
"$SMALLFIX" repair --repo "$repo" --log "$DATA/$NAME/pytest.log" --timeout 300 --json \
  --test "CKPT_SOAK_FLAG=$flag python -m pytest -q -x $TEST_ID -k 'not $marker_a'" \
  > "$work/a.json" 2> "$work/a.err" &
pid_a=$!
E2E_PIDS="${E2E_PIDS:-} $pid_a"
waited=0
until grep -q ": validating" "$work/a.err" 2> /dev/null && test -e "$flag" && pgrep -f "$(pytest_pattern "$marker_a")" > /dev/null; do
  kill -0 "$pid_a" 2> /dev/null || { cat "$work/a.err"; fail "run A ended before validation began"; }
  sleep 0.2
  waited=$((waited + 1))
  test "$waited" -lt 600 || { cat "$work/a.err"; fail "run A did not reach the soak within 120 s"; }
done
worktrees_a=$(git -C "$repo" worktree list --porcelain | sed -n 's/^worktree //p' | grep -v "^$repo\$")
echo "run A ($pid_a) validating in: $worktrees_a"
test -n "$worktrees_a" || fail "run A has no worktree during validation?"
test -z "$(git -C "$repo" branch --list 'smallfix-*')" || fail "run A's worktrees are not detached: $(git -C "$repo" branch)"

# 2. Run B beside it.
rc=0
"$SMALLFIX" repair --repo "$repo" --log "$DATA/$NAME/pytest.log" --timeout 300 --json \
  --test "CKPT_SOAK_SECONDS=0 python -m pytest -q -x $TEST_ID" > "$work/b.json" 2> "$work/b.err" || rc=$?
test "$rc" = 0 || { cat "$work/b.err" >&2; fail "run B (beside a live run): expected exit 0, got $rc"; }
echo "run B beside A: exit 0, plausible $(first_plausible_diff "$work/b.json" "$work/b.diff")"
kill -0 "$pid_a" 2> /dev/null || fail "run A ended while B ran"
for tree in $worktrees_a; do
  test -d "$tree" || fail "run B swept live run A's worktree $tree"
  git -C "$repo" worktree list --porcelain | grep -qx "worktree $tree" || fail "run B pruned A's record of $tree"
done
echo "run A's worktrees survived run B: $(echo "$worktrees_a" | wc -w)"

# 3. SIGKILL run A.
kill -KILL "$pid_a"
wait "$pid_a" 2> /dev/null || true
for _ in $(seq 50); do pgrep -f "$(pytest_pattern "$marker_a")" > /dev/null || break; sleep 0.1; done
assert_no_process "$marker_a"
left=$(git -C "$repo" worktree list --porcelain | grep -c '^worktree ' || true)
echo "after SIGKILL: $((left - 1)) worktree(s) of run A still registered, scratch: $(cd "$TMPDIR" && ls -d smallfix-* 2>/dev/null | wc -l) director(ies)"
test "$left" -gt 1 || fail "run A's worktrees vanished on their own? (the test would prove nothing)"

# 4. Run C sweeps and succeeds.
rc=0
"$SMALLFIX" repair --repo "$repo" --log "$DATA/$NAME/pytest.log" --timeout 300 --json \
  --test "CKPT_SOAK_SECONDS=0 python -m pytest -q -x $TEST_ID" > "$work/c.json" 2> "$work/c.err" || rc=$?
test "$rc" = 0 || { cat "$work/c.err" >&2; fail "run C (after the SIGKILL): expected exit 0, got $rc"; }
echo "run C after SIGKILL: exit 0, plausible $(first_plausible_diff "$work/c.json" "$work/c.diff")"
note=$(json "$work/c.json" '[n for n in d["notes"] if n.startswith("removed what smallfix runs")]')
echo "run C's note: $note"
case "$note" in *"worktree(s)"*) ;; *) fail "run C's report does not say what it swept: $(json "$work/c.json" 'd["notes"]')" ;; esac

assert_untouched "$repo"
test "$(git -C "$repo" ls-files -s | sha1sum)" = "$tracked_before" || fail "tracked files changed"
test -z "$(git -C "$repo" for-each-ref | grep smallfix || true)" || fail "refs left: $(git -C "$repo" for-each-ref)"
echo "repair sigkill ok"
