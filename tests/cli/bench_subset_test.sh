#!/usr/bin/env bash
# smallfix bench end to end on a small subset of the benchmark (the CI subset): two bugs
# that smallfix fixes from their issue alone, each plausible, correct and ranked first; the
# JSON, markdown and SVG outputs are written; bad input exits 2.
set -euo pipefail
SMALLFIX="$1"
SRC="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$SMALLFIX" bench --bugs-dir "$SRC/benchmarks/smallfix/bugs" \
  --bug guard-none-grad-skip --bug param-cast-str-env --jobs 2 \
  --json "$work/out.json" --markdown "$work/out.md" --chart "$work/out.svg" > "$work/stdout" 2> "$work/stderr" || {
  echo "smallfix bench failed:"; cat "$work/stdout" "$work/stderr"; exit 1; }
cat "$work/stdout"

/usr/bin/python3 - "$work/out.json" "$work/out.svg" <<'PY'
import json, sys
import xml.etree.ElementTree as ET
out = json.load(open(sys.argv[1]))
assert out["mode"] == "issue", out["mode"]
bugs = {b["id"]: b for b in out["bugs"]}
assert set(bugs) == {"guard-none-grad-skip", "param-cast-str-env"}, list(bugs)
for bug in bugs.values():
    assert bug["plausible"] is True, bug
    assert bug["correct"] is True, bug
    assert bug["rank"] == 1, bug
    assert bug["candidates"] >= 1 and bug["validated"] >= 1, bug
    assert bug["seconds"] > 0 and "error" not in bug, bug
assert bugs["guard-none-grad-skip"]["family"] == "guard"
assert bugs["param-cast-str-env"]["family"] == "param"
totals = out["totals"]
assert totals["all"]["bugs"] == 2 and totals["all"]["correct"] == 2, totals
assert totals["guard"]["plausible"] == 1 and totals["param"]["correct"] == 1, totals
root = ET.parse(sys.argv[2]).getroot()
assert root.tag.endswith("svg"), root.tag
PY
grep -q "| guard-none-grad-skip | guard | 1 | yes | yes | 1 |" "$work/out.md"
grep -q "^all " "$work/stdout"
# Off a terminal the progress is one line per finished bug.
test "$(grep -c '^bench: \[' "$work/stderr")" = 2

# Bad input: exit 2 with a message.
set +e
"$SMALLFIX" bench --bugs-dir "$work/nope" >/dev/null 2>"$work/err"; rc=$?
test "$rc" = 2 || { echo "expected exit 2 for a missing bugs dir, got $rc"; exit 1; }
"$SMALLFIX" bench --bugs-dir "$SRC/benchmarks/smallfix/bugs" --bug no-such-bug >/dev/null 2>"$work/err"; rc=$?
test "$rc" = 2 || { echo "expected exit 2 for an unknown bug, got $rc"; exit 1; }
grep -q "no-such-bug" "$work/err"
mkdir -p "$work/bugs/guard-broken"
printf 'id: guard-broken\nfamily: guard\nworld_size: many\n' > "$work/bugs/guard-broken/bug.yaml"
"$SMALLFIX" bench --bugs-dir "$work/bugs" >/dev/null 2>"$work/err"; rc=$?
set -e
test "$rc" = 2 || { echo "expected exit 2 for a malformed bug.yaml, got $rc"; exit 1; }
grep -q "bug.yaml:[0-9]" "$work/err" || { cat "$work/err"; exit 1; }
echo "bench subset ok"
