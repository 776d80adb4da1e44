#!/usr/bin/env bash
# Three `smallfix repair` runs started at once on one repository all find the patch.
# Each run names its worktrees after itself (smallfix-<pid>.<start>.<host>-<n>-<name>), so none
# meets another's in .git/worktrees (before, two of three ended with exit 3: "failed to make
# directory '.git/worktrees/smallfix-reproduce': directory exists"), and each run's sweep of what
# killed runs left never touches a live run's worktrees. Afterwards the repository holds no
# worktree, no smallfix branch or ref, no scratch directory, and its tracked files are unchanged.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"

NAME=guard_clip_frozen
FAILING="python -m pytest -q -x tests/test_clip.py::test_clip_with_frozen_embedding"
ALL="python -m pytest -q tests"
make_repo "$NAME" "$work/repo"
tracked_before=$(git -C "$work/repo" ls-files -s | sha1sum)

pids=()
for i in 1 2 3; do
  "$SMALLFIX" repair --repo "$work/repo" --issue "$DATA/$NAME/issue.md" \
    --test "$FAILING" --test "$ALL" --timeout 180 --json > "$work/out$i.json" 2> "$work/err$i" &
  pids+=($!)
  E2E_PIDS="${E2E_PIDS:-} $!"
done
for i in 1 2 3; do
  rc=0
  wait "${pids[$((i - 1))]}" || rc=$?
  echo "run $i: exit $rc"
  test "$rc" = 0 || { cat "$work/err$i" >&2; fail "run $i: expected exit 0 (a plausible patch), got $rc"; }
  template=$(first_plausible_diff "$work/out$i.json" "$work/fix$i.diff")
  echo "run $i: plausible $template"
  print_timing "concurrent run $i" "$work/out$i.json"
done
# The same patch, three times.
cmp -s "$work/fix1.diff" "$work/fix2.diff" && cmp -s "$work/fix1.diff" "$work/fix3.diff" \
  || fail "the three runs found different patches: $(cat "$work"/fix?.diff)"
cat "$work/fix1.diff"

assert_untouched "$work/repo"
test "$(git -C "$work/repo" ls-files -s | sha1sum)" = "$tracked_before" || fail "tracked files changed"
test -z "$(git -C "$work/repo" for-each-ref | grep smallfix || true)" || fail "refs left: $(git -C "$work/repo" for-each-ref)"
echo "repair concurrent ok"
