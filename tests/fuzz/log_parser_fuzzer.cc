// libFuzzer target for the failure-log parser (scripts/fuzz.sh builds it with clang; with
// another compiler it replays its inputs: tests/fuzz/fuzz_main.h).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/log_parser_fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  smallfix::FuzzLogParser(data, size);
  return 0;
}

#include "tests/fuzz/fuzz_main.h"
