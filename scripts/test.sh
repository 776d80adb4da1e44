#!/usr/bin/env bash
# Runs the whole test suite through CTest (unit tests, template examples, CLI integration).
# Expects scripts/setup.sh to have built build/.
set -euo pipefail
cd "$(dirname "$0")/.."
PRESET="${PRESET:-release}"
ctest --preset "$PRESET" -j "$(nproc)" "$@"
# A short fuzzing run of the failure-log parser (libFuzzer, clang); SKIP_FUZZ=1 skips it.
if [[ -z "${SKIP_FUZZ:-}" ]]; then
  scripts/fuzz.sh
fi
