#!/usr/bin/env bash
# Builds a libFuzzer target with clang (ASan + UBSan) in build-fuzz/ and runs it briefly on a
# seed corpus made from tests/data/localize (cases, shapes, and for shapes_fuzzer the meshtrain
# mini repo's sources and metadata). Exits non-zero when the fuzzer finds a crash, a leak or a
# sanitizer report (the reproducer is left in build-fuzz/).
#
#   scripts/fuzz.sh                          # log_parser_fuzzer, 30 seconds
#   scripts/fuzz.sh shapes_fuzzer            # the multi-node and installed-package readers
#   FUZZ_SECONDS=600 scripts/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET="${1:-log_parser_fuzzer}"
case "$TARGET" in
  log_parser_fuzzer) SEEDS=(tests/data/localize/cases tests/data/localize/shapes) ;;
  shapes_fuzzer) SEEDS=(tests/data/localize/shapes tests/data/localize/meshtrain) ;;
  *) echo "fuzz: unknown target $TARGET (log_parser_fuzzer or shapes_fuzzer)" >&2; exit 2 ;;
esac
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
cmake --build "$BUILD_DIR" -j "$(nproc)" --target "$TARGET"

# The seeds are the corpus cases; new inputs the fuzzer finds go to a separate folder so
# the checked-in data is never written.
mkdir -p "$BUILD_DIR/fuzz-corpus-$TARGET" "$BUILD_DIR/fuzz-artifacts"
echo "fuzz: running $TARGET for ${SECONDS_TO_RUN}s"
set +e
"$BUILD_DIR/$TARGET" "$BUILD_DIR/fuzz-corpus-$TARGET" "${SEEDS[@]}" \
  -max_total_time="$SECONDS_TO_RUN" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
  -artifact_prefix="$BUILD_DIR/fuzz-artifacts/$TARGET-" -print_final_stats=1 \
  >"$BUILD_DIR/fuzz-$TARGET.log" 2>&1
status=$?
set -e
tail -n 25 "$BUILD_DIR/fuzz-$TARGET.log"
if [[ $status -ne 0 ]]; then
  echo "fuzz: the fuzzer found a problem; reproducers are in $BUILD_DIR/fuzz-artifacts/" >&2
  exit "$status"
fi
echo "fuzz: no crash, leak or sanitizer report in ${SECONDS_TO_RUN}s"
