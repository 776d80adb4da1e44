// libFuzzer target for the JUnit XML reader: any bytes either read as test cases (and tally)
// or give an error naming the byte offset where the XML stops making sense.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/junit/junit_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace smallfix;
  const std::string_view xml(reinterpret_cast<const char*>(data), size);
  (void)LooksLikeJUnit(xml);
  absl::StatusOr<std::vector<JUnitCase>> cases = ReadJUnit(xml);
  if (!cases.ok()) {
    if (std::string(cases.status().message()).find("byte") == std::string::npos) abort();
    return 0;
  }
  const CaseTally tally = TallyCases(*cases);
  if (tally.failures > tally.tests) abort();
  return 0;
}

#include "tests/fuzz/fuzz_main.h"
