#!/usr/bin/env bash
# Runs the whole test suite through CTest (unit tests, template examples, CLI integration).
# Expects scripts/setup.sh to have built build/.
set -euo pipefail
cd "$(dirname "$0")/.."
PRESET="${PRESET:-release}"
# The project venv (scripts/setup.sh) is the default interpreter: its python3 comes first on PATH.
export PATH="$PWD/.venv/bin:$PATH"
# The C++ is clang-formatted (scripts/format.sh rewrites it); a diff fails the run before any test.
scripts/format.sh --check
exec ctest --preset "$PRESET" -j "$(nproc)" "$@"
