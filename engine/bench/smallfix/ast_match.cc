#include "engine/bench/smallfix/ast_match.h"

#include <map>
#include <string>

#include "engine/source/tree_key.h"

namespace smallfix::bench {
namespace {

struct Sides {
  const FileChange* reference = nullptr;
  const FileChange* candidate = nullptr;
};

}  // namespace

bool SameAstAsReference(const std::vector<FileChange>& reference,
                        const std::vector<FileChange>& candidate) {
  if (reference.empty() || candidate.empty()) return false;
  std::map<std::string, Sides> files;
  for (const FileChange& file : reference) files[file.file].reference = &file;
  for (const FileChange& file : candidate) files[file.file].candidate = &file;
  for (const auto& [name, sides] : files) {
    const std::string& want = sides.reference ? sides.reference->after : sides.candidate->before;
    const std::string& got = sides.candidate ? sides.candidate->after : sides.reference->before;
    if (want == got) continue;
    if (TreeKey(name, want) != TreeKey(name, got)) return false;
  }
  return true;
}

}  // namespace smallfix::bench
