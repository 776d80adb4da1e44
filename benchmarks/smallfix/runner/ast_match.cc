#include "benchmarks/smallfix/runner/ast_match.h"

#include <map>
#include <string>

#include "engine/repair/tree_key.h"

namespace smallfix::bench {
namespace {

struct Sides {
  const PatchedFile* reference = nullptr;
  const PatchedFile* candidate = nullptr;
};

}  // namespace

bool SameAstAsReference(const std::vector<PatchedFile>& reference, const std::vector<PatchedFile>& candidate) {
  if (reference.empty() || candidate.empty()) return false;
  std::map<std::string, Sides> files;
  for (const PatchedFile& file : reference) files[file.file].reference = &file;
  for (const PatchedFile& file : candidate) files[file.file].candidate = &file;
  for (const auto& [name, sides] : files) {
    const std::string& want = sides.reference ? sides.reference->after : sides.candidate->before;
    const std::string& got = sides.candidate ? sides.candidate->after : sides.reference->before;
    if (want == got) continue;
    if (TreeKey(name, want) != TreeKey(name, got)) return false;
  }
  return true;
}

}  // namespace smallfix::bench
