#!/usr/bin/env bash
# Builds the log parser's libFuzzer target with clang (ASan + UBSan) in build-fuzz/ and runs
# it briefly on a seed corpus made from tests/data/localize/cases and shapes. Exits non-zero when the
# fuzzer finds a crash, a leak or a sanitizer report (the reproducer is left in build-fuzz/).
#
#   scripts/fuzz.sh                  # 30 seconds
#   FUZZ_SECONDS=600 scripts/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN="${FUZZ_SECONDS:-30}"
BUILD_DIR=build-fuzz
CXX_COMPILER="$(command -v clang++ || command -v clang++-14 || true)"
C_COMPILER="$(command -v clang || command -v clang-14 || true)"
if [[ -z "$CXX_COMPILER" || -z "$C_COMPILER" ]]; then
  echo "fuzz: clang is not installed (scripts/setup.sh installs it)" >&2
  exit 1
fi
if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER="$C_COMPILER" -DCMAKE_CXX_COMPILER="$CXX_COMPILER" \
    -DSMALLFIX_SANITIZE=ON -DSMALLFIX_LIBFUZZER=ON -DBUILD_TESTING=OFF >/dev/null
fi
cmake --build "$BUILD_DIR" -j "$(nproc)" --target log_parser_fuzzer

# The seeds are the corpus cases; new inputs the fuzzer finds go to a separate folder so
# the checked-in data is never written.
mkdir -p "$BUILD_DIR/fuzz-corpus" "$BUILD_DIR/fuzz-artifacts"
echo "fuzz: running log_parser_fuzzer for ${SECONDS_TO_RUN}s"
set +e
"$BUILD_DIR/log_parser_fuzzer" "$BUILD_DIR/fuzz-corpus" tests/data/localize/cases \
  tests/data/localize/shapes \
  -max_total_time="$SECONDS_TO_RUN" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
  -artifact_prefix="$BUILD_DIR/fuzz-artifacts/" -print_final_stats=1 >"$BUILD_DIR/fuzz.log" 2>&1
status=$?
set -e
tail -n 25 "$BUILD_DIR/fuzz.log"
if [[ $status -ne 0 ]]; then
  echo "fuzz: the fuzzer found a problem; reproducers are in $BUILD_DIR/fuzz-artifacts/" >&2
  exit "$status"
fi
echo "fuzz: no crash, leak or sanitizer report in ${SECONDS_TO_RUN}s"
