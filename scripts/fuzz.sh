#!/usr/bin/env bash
# Builds a libFuzzer target with clang (ASan + UBSan) in build-fuzz/ and runs it on its seeds
# (tests/fuzz/targets.txt). Exits non-zero when the fuzzer finds a crash, a leak, a timeout or
# a sanitizer report; the reproducer is left in build-fuzz/fuzz-artifacts/TARGET/.
#
#   scripts/fuzz.sh                         # log_parser_fuzzer for 30 seconds
#   scripts/fuzz.sh TARGET SECONDS          # e.g. scripts/fuzz.sh edit_fuzzer 600
#   scripts/fuzz.sh all SECONDS             # every target, one after the other
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET="${1:-log_parser_fuzzer}"
SECONDS_TO_RUN="${2:-${FUZZ_SECONDS:-30}}"
BUILD_DIR=build-fuzz
if [[ "$TARGET" == all ]]; then
  for name in $(grep -o '^[a-z_]*_fuzzer' tests/fuzz/targets.txt); do
    "$0" "$name" "$SECONDS_TO_RUN"
  done
  exit 0
fi
[[ "$TARGET" == *_fuzzer ]] || TARGET="${TARGET}_fuzzer"
seeds=$(awk -v t="$TARGET" '$1 == t { for (i = 3; i <= NF; i++) print $i }' tests/fuzz/targets.txt)
if [[ -z "$seeds" ]]; then
  echo "fuzz: no target $TARGET in tests/fuzz/targets.txt" >&2
  exit 2
fi
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

# New inputs the fuzzer finds go to build-fuzz/fuzz-corpus/TARGET (the first folder given),
# so the checked-in seeds are never written.
corpus="$BUILD_DIR/fuzz-corpus/$TARGET"
artifacts="$BUILD_DIR/fuzz-artifacts/$TARGET"
log="$BUILD_DIR/fuzz-$TARGET.log"
mkdir -p "$corpus" "$artifacts"
# The targets that write files (fuzz_scratch.h) remove their folder at exit, but libFuzzer
# leaves without running exit handlers when it reports a crash, a leak or a timeout: the run
# gets a TMPDIR of its own, removed here however it ended.
scratch="$(mktemp -d "${TMPDIR:-/tmp}/smallfix-fuzz-run-XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
echo "fuzz: running $TARGET for ${SECONDS_TO_RUN}s"
set +e
# shellcheck disable=SC2086
TMPDIR="$scratch" UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  LSAN_OPTIONS=suppressions=tests/lsan.supp:print_suppressions=0 "$BUILD_DIR/$TARGET" "$corpus" $seeds \
  -max_total_time="$SECONDS_TO_RUN" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
  -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1
status=$?
set -e
tail -n 25 "$log"
if [[ $status -ne 0 ]]; then
  echo "fuzz: $TARGET found a problem; reproducers are in $artifacts/" >&2
  exit "$status"
fi
echo "fuzz: $TARGET: no crash, leak or sanitizer report in ${SECONDS_TO_RUN}s ($(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$') runs)"
