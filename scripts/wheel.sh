#!/usr/bin/env bash
# Builds the wheel of smallfix (pyproject.toml) into dist/, or into OUT_DIR:
#   scripts/setup.sh && scripts/wheel.sh [OUT_DIR]
#   pip install dist/smallfix-*.whl        # then: smallfix repair ...
# The build backend (scikit-build-core) and its dependencies come at exact versions
# (wheel/build-requirements.txt) into a venv of their own, build-wheel/backend; CMake builds in
# build-wheel/, reusing the compiler cache of build/.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="$(realpath -m "${1:-dist}")"
backend=build-wheel/backend
if ! cmp -s wheel/build-requirements.txt "$backend/.smallfix-lock" 2>/dev/null; then
  rm -rf "$backend"
  python3 -m venv "$backend"
  "$backend/bin/pip" install -q --disable-pip-version-check --no-deps -r wheel/build-requirements.txt
  cp wheel/build-requirements.txt "$backend/.smallfix-lock"
fi
# No build isolation: the backend above is the pinned one, not whatever an index offers now.
# The compilers CMake picks for build/ (scikit-build-core would take Python's, gcc and g++,
# whose other names make the compiler cache miss).
CC="${CC:-cc}" CXX="${CXX:-c++}" "$backend/bin/pip" wheel -q --disable-pip-version-check --no-build-isolation --no-deps \
  --wheel-dir "$OUT" .
ls "$OUT"/smallfix-*.whl
