// libFuzzer target for the template loader: any bytes as a template file either load (and
// then every example is checked: the matcher and the rewriter run on the template's own
// before/after code) or give an error naming the file. Seeds: templates/.
#include <cstddef>
#include <cstdint>

#include "engine/patterns/example_check.h"
#include "engine/patterns/template_loader.h"
#include "tests/fuzz/fuzz_scratch.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace smallfix;
  const std::string path = WriteFuzzFile("template.yaml", data, size);
  absl::StatusOr<Template> loaded = LoadTemplate(path);
  if (!loaded.ok()) {
    // Every error names the file it is about.
    if (std::string(loaded.status().message()).find(path) == std::string::npos) abort();
    return 0;
  }
  (void)CheckExamples(*loaded, nullptr, [](std::string_view text) {
    return Symptom::FromText(text);
  });
  return 0;
}

#include "tests/fuzz/fuzz_main.h"
