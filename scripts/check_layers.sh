#!/usr/bin/env bash
# Checks the arrows between the project's folders: which folder's C++ may not include which
# other folder's headers. Each rule is one line of RULES: FOLDER, then the include prefixes
# its .cc and .h files must not name.
# Run by ctest (the `layers` test); exits 1 listing every include that breaks a rule.
set -euo pipefail
cd "$(dirname "$0")/.."

RULES='
engine/base       engine/ validators/
engine/junit      engine/base engine/source engine/index engine/localize validators/
engine/symptom    engine/ validators/
engine/localize   validators/ engine/repair engine/cli engine/bench
engine/patterns   validators/ engine/repair engine/cli engine/bench
engine/source     validators/ engine/repair engine/cli engine/bench engine/localize engine/patterns
validators        engine/repair engine/cli engine/bench engine/localize engine/rank
engine/repair     engine/cli engine/bench
engine/bench      engine/cli
'

status=0
while read -r folder forbidden; do
  [[ -z "$folder" ]] && continue
  for prefix in $forbidden; do
    # engine/base may include itself; a folder is never forbidden its own headers.
    [[ "$folder/" == "$prefix"* ]] && pattern_self="$folder/" || pattern_self=""
    while IFS= read -r hit; do
      included=$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"${hit#*:*:}")
      [[ -n "$pattern_self" && "$included" == "$pattern_self"* ]] && continue
      echo "layers: $hit: $folder may not include $prefix"
      status=1
    done < <(git grep -n -E "^#include \"$prefix" -- "$folder/*.cc" "$folder/*.h" || true)
  done
done <<<"$RULES"

exit $status
