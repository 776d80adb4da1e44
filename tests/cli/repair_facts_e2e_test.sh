#!/usr/bin/env bash
# End to end: a fix that only the failing run's runtime facts make.
# tests/data/repair/facts_moe_aux: an expert that routed no token has aux_loss None, and the sum
# of the experts' losses adds it. No source line says which value was None at the `+=`; the
# reproduction's facts do. `smallfix repair` must read them after reproducing the failure, add
# the candidates of the templates that read facts, validate one as plausible, and say in the
# report which fact it rests on. Without the facts (--no-validate: nothing runs), the same fix
# must be no candidate at all. The user's tree stays as it was.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"

NAME=facts_moe_aux
# The whole test file: two of its tests pass through the faulting line, and the reproduction
# records the values there (the trace at the best site), which guard synthesis sets against
# the failing run's.
FAILING="python -m pytest -q tests/test_loss.py"
ALL="python -m pytest -q tests"
make_repo "$NAME" "$work/repo"
(cd "$work/repo" && "$PY" -m pytest -q -p no:cacheprovider tests > "$work/failure.log" 2>&1) && fail "the suite passes on the buggy tree"
head_before=$(git -C "$work/repo" rev-parse HEAD)

set +e
"$SMALLFIX" repair --repo "$work/repo" --log "$work/failure.log" \
  --test "$FAILING" --test "$ALL" --timeout 120 --json > "$work/out.json" 2> "$work/err"
rc=$?
set -e
cat "$work/err" >&2
test "$rc" = 0 || fail "expected exit 0 (a plausible patch), got $rc"
first_plausible_diff "$work/out.json" "$work/fix.diff" > /dev/null

"$PY" - "$work/out.json" "$work/fix.diff" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
facts = d["facts"]
assert facts["read"], facts
assert facts["candidates"] >= 1, facts
assert "test_expert_that_routed_nothing" in facts["described"], facts
assert "2 passing test(s) at moe/loss.py:7" in facts["described"], facts
c = next(c for c in d["candidates"] if c["validation"]["status"] == "plausible")
# The guard names the value that was None, and says so.
assert "layer.aux_loss is None" in c["diff"] or "layer.aux_loss is not None" in c["diff"], c["diff"]
assert "`layer.aux_loss` was None at moe/loss.py:7" in c.get("fact", ""), c
stages = {s["name"]: s["status"] for s in c["validation"]["stages"]}
assert stages == {"syntax": "passed", "compile": "passed", "test": "passed", "regression": "passed"}, stages
PY
grep -q "facts: .*candidate(s) only they made" "$work/err" && fail "the report's text went to stderr"
"$SMALLFIX" repair --repo "$work/repo" --log "$work/failure.log" --test "$FAILING" --test "$ALL" \
  --timeout 120 > "$work/out.txt" 2> /dev/null || fail "the text report run failed"
grep -q '^facts:   `tests/test_loss.py::test_expert_that_routed_nothing` raised TypeError' "$work/out.txt" \
  || fail "no facts line in the text report: $(cat "$work/out.txt")"
grep -q 'because `layer.aux_loss` was None at moe/loss.py:7 in the failing run' "$work/out.txt" \
  || fail "no fact under the plausible candidate: $(cat "$work/out.txt")"

# With only the failing test in the failing command, the passing runs at the line come from the
# other tests, run once on the unpatched tree with the line traced.
"$SMALLFIX" repair --repo "$work/repo" --log "$work/failure.log" \
  --test "python -m pytest -q tests/test_loss.py::test_expert_that_routed_nothing" --test "$ALL" \
  --timeout 120 --json > "$work/traced.json" 2> "$work/traced.err" || fail "the traced run failed"
grep -q "tracing moe/loss.py:7 in the other tests on the unpatched tree" "$work/traced.err" \
  || fail "no trace of the other tests: $(cat "$work/traced.err")"
"$PY" - "$work/traced.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert "2 passing test(s) at moe/loss.py:7" in d["facts"]["described"], d["facts"]
PY

# Without the failing run, the same code is no candidate, and no facts are reported.
"$SMALLFIX" repair --repo "$work/repo" --log "$work/failure.log" --no-validate --json \
  > "$work/static.json" 2> /dev/null || true
"$PY" - "$work/static.json" "$work/fix.diff" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
fix = open(sys.argv[2]).read()
assert "facts" not in d, d.get("facts")
added = [l for l in fix.splitlines() if l.startswith("+") and not l.startswith("+++")]
for c in d["candidates"]:
    mine = [l for l in c["diff"].splitlines() if l.startswith("+") and not l.startswith("+++")]
    assert mine != added, ("the fix is a candidate without facts", c["template"])
PY

test "$(git -C "$work/repo" rev-parse HEAD)" = "$head_before" || fail "HEAD moved"
assert_untouched "$work/repo"
echo "repair facts e2e ok"
