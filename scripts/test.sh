#!/usr/bin/env bash
# Runs the whole test suite through CTest (unit tests, template examples, CLI integration).
# Expects scripts/setup.sh to have built build/.
set -euo pipefail
cd "$(dirname "$0")/.."
PRESET="${PRESET:-release}"
exec ctest --preset "$PRESET" -j "$(nproc)" "$@"
