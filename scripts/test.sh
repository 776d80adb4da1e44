#!/usr/bin/env bash
# Runs the whole test suite through CTest (unit tests, template examples, CLI integration).
# Expects scripts/setup.sh to have configured build/ (it builds the CLI alone); the test
# binaries, benchmarks and fuzz replayer are built here, before any test runs.
set -euo pipefail
cd "$(dirname "$0")/.."
PRESET="${PRESET:-release}"
# The project venv (scripts/setup.sh) is the default interpreter: its python3 comes first on PATH.
export PATH="$PWD/.venv/bin:$PATH"
# The C++ is clang-formatted (scripts/format.sh rewrites it); a diff fails the run before any test.
scripts/format.sh --check
BUILD_DIR=build
[[ "$PRESET" != release ]] && BUILD_DIR="build-$PRESET"
[[ -f "$BUILD_DIR/build.ninja" ]] || { echo "test: $BUILD_DIR is not configured; run scripts/setup.sh first" >&2; exit 2; }
cmake --build --preset "$PRESET" -j "$(nproc)"
exec ctest --preset "$PRESET" -j "$(nproc)" "$@"
