#!/usr/bin/env bash
# clang-format over the C++ the project writes: every .cc and .h under engine/ and validators/
# (.clang-format at the root).
#   scripts/format.sh          # rewrite the files in place
#   scripts/format.sh --check  # list what is not formatted and exit 1; scripts/test.sh runs this
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files -- 'engine/*.cc' 'engine/*.h' 'validators/*.cc' 'validators/*.h')
if [[ "${1:-}" == --check ]]; then
  clang-format --dry-run -Werror "${files[@]}"
else
  clang-format -i "${files[@]}"
fi
