// libFuzzer target for edit application on real files: the Python sources of the benchmark's
// projects, each parsed once. An input picks a file and up to 8 edits (offsets, lengths and
// replacement bytes); the edit set either refuses them (overlaps, past the end) or
// ApplyEdits either refuses the result (more syntax errors, not UTF-8) or gives a document
// whose text is the edits applied, with no more syntax errors than before, whose
// incrementally re-parsed tree is the tree a fresh parse gives, and whose diff libgit2 makes.
// Any other outcome aborts.
#include <tree_sitter/api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/source/diff.h"
#include "engine/source/document.h"
#include "engine/source/edit.h"

namespace {

using smallfix::Document;

const std::vector<Document>& RealFiles() {
  static const std::vector<Document>* const files = [] {
    auto* out = new std::vector<Document>;
    std::vector<std::string> paths;
    const std::filesystem::path root =
        std::filesystem::path(SMALLFIX_SOURCE_DIR) / "benchmarks" / "smallfix" / "bugs";
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      if (entry.path().extension() == ".py" && entry.file_size() < (16 << 10))
        paths.push_back(entry.path().string());
    }
    std::sort(paths.begin(), paths.end());
    for (const std::string& path : paths) {
      absl::StatusOr<Document> document =
          Document::Load(path, std::filesystem::relative(path, root).string());
      if (document.ok()) out->push_back(*std::move(document));
    }
    if (out->empty()) abort();
    return out;
  }();
  return *files;
}

std::string TreeText(const Document& document) {
  char* text = ts_node_string(document.root());
  std::string out(text);
  free(text);
  return out;
}

// Reads the input front to back; past its end every read is 0.
struct Reader {
  const uint8_t* data;
  size_t size;
  size_t at = 0;
  unsigned Byte() { return at < size ? data[at++] : 0; }
  unsigned Word() { return Byte() | (Byte() << 8); }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace smallfix;
  Reader in{data, size};
  const std::vector<Document>& files = RealFiles();
  const Document& document = files[in.Word() % files.size()];
  const std::string_view text = document.text();
  EditSet edits;
  for (int i = 0; i < 8 && in.at < in.size; ++i) {
    const unsigned flags = in.Byte();
    Edit edit;
    edit.start = in.Word() % (text.size() + 1);
    edit.end = edit.start + in.Byte() % 48;
    // Mostly within the text; one edit in 16 may reach past its end (which must be refused).
    if ((flags & 15) != 0) edit.end = std::min(edit.end, text.size());
    const size_t length = std::min<size_t>(in.Byte() % 40, in.size - in.at);
    edit.replacement.assign(reinterpret_cast<const char*>(data + in.at), length);
    in.at += length;
    (void)edits.Add(std::move(edit));
  }
  const absl::StatusOr<std::string> applied = edits.Apply(text);
  const absl::StatusOr<Document> after = ApplyEdits(document, edits);
  if (!after.ok()) return 0;  // refused: fine
  if (!applied.ok() || after->text() != *applied) abort();
  if (after->CountSyntaxErrors() > document.CountSyntaxErrors()) abort();
  absl::StatusOr<Document> fresh = Document::Parse(document.path(), *applied);
  if (!fresh.ok()) abort();
  if (after->CountSyntaxErrors() == 0 && TreeText(*fresh) != TreeText(*after)) abort();
  if (!UnifiedDiff(document.path(), text, after->text()).ok()) abort();
  return 0;
}

#include "tests/fuzz/fuzz_main.h"
