#!/usr/bin/env bash
# The docs stand alone: README.md stays under 150 lines, nothing in the project points outside
# it (no path into a sibling shared/ folder, no DESIGN file, which the project does not have),
# every relative link in README.md and docs/*.md names a file that exists, and every repo path
# the docs quote in backticks (engine/..., docs/..., scripts/...) outside fenced blocks exists.
# Usage: docs_test.sh SOURCE_DIR
set -uo pipefail
shopt -s nullglob
src="${1:?usage: docs_test.sh SOURCE_DIR}"
cd "$src" || exit 2
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

lines=$(wc -l < README.md)
((lines <= 150)) || fail "README.md has $lines lines (at most 150)"

# Tracked files (every file outside build output where this is not a git checkout). The
# needles are built from parts so that this script does not name them itself.
outside="../""shared"
design="DESIGN"".md"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  hits=$(git grep -n -F -e "$outside" -e "$design" -- . || true)
else
  hits=$(grep -rn -F -e "$outside" -e "$design" --exclude-dir='build*' --exclude-dir=node_modules \
    --exclude-dir=.venv --exclude-dir=.git . || true)
fi
[[ -z "$hits" ]] || fail "a file points outside the project:"$'\n'"$hits"

placeholder='[<>*{} ]'
docs=(README.md docs/*.md)
for doc in "${docs[@]}"; do
  dir=$(dirname "$doc")
  # Markdown links [text](target): targets without a scheme, minus any #fragment.
  while IFS= read -r target; do
    path="${target%%#*}"
    [[ -z "$path" || "$path" =~ ^[a-z]+: ]] && continue
    [[ -e "$dir/$path" ]] || fail "$doc links to $target, which does not exist"
  done < <(grep -o '\]([^)]*)' "$doc" | sed 's/^](\(.*\))$/\1/; s/ .*//')
  # Paths quoted in backticks under the project's own folders; placeholders and globs skipped,
  # and so are fenced blocks: what a run printed names the files of the repo it ran in.
  while IFS= read -r quoted; do
    path="${quoted%%:*}"
    [[ "$path" =~ $placeholder ]] && continue
    [[ "$path" == *... ]] && continue
    [[ -e "$path" ]] || fail "$doc quotes \`$quoted\`, which does not exist"
  done < <(awk 'fence == "" && /^(```|~~~)/ { fence = substr($0, 1, 3); next }
        fence != "" && substr($0, 1, 3) == fence { fence = ""; next }
        fence == ""' "$doc" |
    grep -o '`\(engine\|validators\|benchmarks\|templates\|tests\|scripts\|docs\)/[^`]*`' | tr -d '`')
done

((failures == 0)) || { echo "$failures problem(s)"; exit 1; }
echo "README.md: $lines lines; ${#docs[@]} docs checked"
