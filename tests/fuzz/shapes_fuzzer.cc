// libFuzzer target for the multi-node and installed-package readers (scripts/fuzz.sh
// shapes_fuzzer builds it with clang). Built with another compiler, it is a plain driver that
// runs each input given on the command line once.
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/shapes_fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  smallfix::FuzzShapes(data, size);
  return 0;
}

#include "tests/fuzz/fuzz_main.h"
