#!/usr/bin/env bash
# A weak template's plausible patch does not end the search. Two templates of a test catalogue
# match `mean()`'s ZeroDivisionError: an early return (ranked first, prior 0.9) and a guarded
# divisor (prior 0.1); both pass the tests. Checks:
#   - marked `weak: true`, the early return is validated first, validation goes on, and the
#     guarded divisor is the patch reported first, with a note naming the one passed over;
#   - unmarked, the early return is the patch reported and the other is never validated;
#   - with no other template, the weak patch is the one reported.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"

repo="$work/repo"
mkdir -p "$repo"
cat > "$repo/stats.py" <<'PY'
def mean(values):
    return sum(values) / len(values)
PY
cat > "$repo/test_stats.py" <<'PY'
from stats import mean

assert mean([2, 4]) == 3
assert mean([]) == 0
print("ok")
PY
git -C "$repo" init -q -b main
git -C "$repo" add -A
git -C "$repo" -c user.name=e2e -c user.email=e2e@example.com commit -qm buggy

# Both templates' negative example: a division by a constant, which neither matches.
not_a_length_division='  - name: not a division by a length
    line: 2
    before: |
      def total(values):
          return sum(values) / 2
    after: null'

write_templates() {  # write_templates DIR WEAK_LINE
  mkdir -p "$1/generic"
  cat > "$1/generic/early_return.yaml" <<YAML
id: generic.early-return-zero
family: generic
summary: Return 0 for an empty sequence before dividing by its length
prior: 0.9
$2
query: |
  (return_statement (binary_operator right: (call function: (identifier) @fn arguments: (argument_list (identifier) @seq))))
where:
  - capture: fn
    equals: "len"
rewrite:
  - action: insert-before
    code: |
      if not {seq}:
          return 0
examples:
  - name: a mean
    line: 2
    before: |
      def mean(values):
          return sum(values) / len(values)
    after: |
      def mean(values):
          if not values:
              return 0
          return sum(values) / len(values)
$not_a_length_division
YAML
  cat > "$1/generic/guarded_divisor.yaml" <<YAML
id: generic.guarded-divisor
family: generic
summary: Divide by at least one
prior: 0.1
query: |
  (binary_operator right: (call function: (identifier) @fn) @divisor)
where:
  - capture: fn
    equals: "len"
rewrite:
  - action: replace
    target: divisor
    with: "max({divisor}, 1)"
examples:
  - name: a mean
    line: 2
    before: |
      def mean(values):
          return sum(values) / len(values)
    after: |
      def mean(values):
          return sum(values) / max(len(values), 1)
$not_a_length_division
YAML
}
write_templates "$work/weak" "weak: true"
write_templates "$work/plain" ""
"$SMALLFIX" templates test "$work/weak" > /dev/null || fail "the test catalogue's examples fail"

run() {  # run TEMPLATES OUT.json
  set +e
  "$SMALLFIX" repair --templates "$1" --repo "$repo" --site stats.py:2 \
    --symptom "ZeroDivisionError: division by zero" --test "python3 test_stats.py" \
    --timeout 60 --json > "$2" 2> "$2.err"
  rc=$?
  set -e
  test "$rc" = 0 || { cat "$2.err" >&2; fail "expected exit 0, got $rc"; }
}

run "$work/weak" "$work/weak.json"
"$PY" - "$work/weak.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
order = [(c["template"], c["validation"]["status"]) for c in d["candidates"]]
assert order[:2] == [("generic.guarded-divisor", "plausible"), ("generic.early-return-zero", "plausible")], order
notes = " ".join(d["notes"])
assert "generic.early-return-zero at stats.py:2 passed the tests too" in notes, notes
assert "generic.guarded-divisor, found after it, comes first" in notes, notes
PY
template=$(first_plausible_diff "$work/weak.json" "$work/weak.diff")
test "$template" = generic.guarded-divisor || fail "reported $template"
grep -q 'max(len(values), 1)' "$work/weak.diff" || fail "the reported diff is not the guarded divisor"

run "$work/plain" "$work/plain.json"
"$PY" - "$work/plain.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
order = [(c["template"], c["validation"]["status"]) for c in d["candidates"]]
assert order[:2] == [("generic.early-return-zero", "plausible"), ("generic.guarded-divisor", "skipped")], order
assert not any("passed the tests too" in n for n in d["notes"]), d["notes"]
PY
cp -r "$work/weak" "$work/alone"
rm "$work/alone/generic/guarded_divisor.yaml"
run "$work/alone" "$work/alone.json"
template=$(first_plausible_diff "$work/alone.json" "$work/alone.diff")
test "$template" = generic.early-return-zero || fail "alone, reported $template"
assert_untouched "$repo"
echo "repair weak ok"
