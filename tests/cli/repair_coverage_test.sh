#!/usr/bin/env bash
# End to end: repair finds by coverage a bug that the pasted failure does not show.
# tests/data/repair/guard_rank_zero_coverage: VocabShard.local_range tests `if not rank:`, so an
# explicit rank 0 means "my own rank". The issue only shows an AssertionError in the test file,
# so localization from the text alone has no site in tpvocab/: with --no-validate (no test may
# run) nothing is found (exit 1). Validating, repair ranks the lines again by coverage when the
# failure names only the tests (as --coverage always does): Ochiai over the suite (4 passing
# tests, 1 failing) ranks the lines of local_range, and guard.truthiness-is-none at
# shard.py:25 is validated (exit 0).
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"

NAME=guard_rank_zero_coverage
FAILING="python -m pytest -q -x tests/test_shard.py::test_range_of_rank_zero"
ALL="python -m pytest -q tests"
make_repo "$NAME" "$work/repo"

# Without running the tests: the only frame is the test's assertion; no candidate.
set +e
"$SMALLFIX" repair --repo "$work/repo" --issue "$DATA/$NAME/issue.md" --no-validate \
  --test "$FAILING" --test "$ALL" --timeout 60 --json > "$work/plain.json" 2> "$work/plain.err"
rc=$?
set -e
cat "$work/plain.err" >&2
test "$rc" = 1 || fail "--no-validate: expected exit 1 (no candidate), got $rc"
test "$(json "$work/plain.json" 'any(s["file"].startswith("tpvocab/") for s in d["sites"])')" = False \
  || fail "--no-validate: a site in tpvocab/ was found: $(json "$work/plain.json" 'd["sites"]')"
grep -q "under coverage" "$work/plain.err" && fail "--no-validate ran the tests under coverage"
assert_untouched "$work/repo"

# Validating, without --coverage: the failure names only the tests, so the lines are ranked by
# coverage; the buggy line is among the sites and a guard there is plausible.
set +e
"$SMALLFIX" repair --repo "$work/repo" --issue "$DATA/$NAME/issue.md" \
  --test "$FAILING" --test "$ALL" --timeout 60 --json > "$work/cov.json" 2> "$work/cov.err"
rc=$?
set -e
cat "$work/cov.err" >&2
test "$rc" = 0 || fail "validating: expected exit 0 (a plausible patch), got $rc"
grep -q "ranking lines by coverage over 5 tests" "$work/cov.err" || fail "no coverage progress line"
test "$(json "$work/cov.json" '"the failure names only the tests: lines ranked by coverage too" in d["notes"]')" = True \
  || fail "no note says why coverage ran: $(json "$work/cov.json" 'd["notes"]')"
test "$(json "$work/cov.json" 'any(s["file"] == "tpvocab/shard.py" and s["line"] == 25 for s in d["sites"])')" = True \
  || fail "tpvocab/shard.py:25 is not a site: $(json "$work/cov.json" 'd["sites"]')"
template=$(first_plausible_diff "$work/cov.json" "$work/fix.diff")
echo "plausible: $template"
cat "$work/fix.diff"
test "$template" = guard.truthiness-is-none || fail "expected guard.truthiness-is-none, got $template"
grep -qx '+        if rank is None:' "$work/fix.diff" || fail "unexpected diff"

# The coverage run wrote nothing into the repo (no .coverage, bytecode or cache) either.
assert_untouched "$work/repo"

# The patch applies by hand and the whole suite passes with it.
git clone -q "$work/repo" "$work/byhand"
git -C "$work/byhand" apply "$work/fix.diff"
(cd "$work/byhand" && "$PY" -m pytest -q -p no:cacheprovider tests) || fail "the suite fails with the patch"

print_timing coverage "$work/cov.json"
echo "repair coverage e2e ok"
