// libFuzzer target for the new-defect checks the matcher runs on every rewrite: any two Python
// texts (the input split at its first "\n#----\n"; without one, an empty file and the input)
// give an answer without a crash, and a text has no new defect compared with itself.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/patterns/new_defects.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace smallfix;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  constexpr std::string_view kSeparator = "\n#----\n";
  const size_t split = input.find(kSeparator);
  const std::string before(split == std::string_view::npos ? "" : input.substr(0, split));
  const std::string after(
      split == std::string_view::npos ? input : input.substr(split + kSeparator.size()));
  absl::StatusOr<Document> old_document = Document::Parse("before.py", before);
  absl::StatusOr<Document> new_document = Document::Parse("after.py", after);
  if (!old_document.ok() || !new_document.ok()) return 0;  // not UTF-8: no candidate is
  (void)NewDefect(*old_document, *new_document);
  (void)NewDefect(*new_document, *old_document);
  if (!NewDefect(*new_document, *new_document).empty()) abort();
  return 0;
}

#include "tests/fuzz/fuzz_main.h"
