#include "engine/repair/tree_key.h"

#include <cstdlib>

#include "absl/status/statusor.h"
#include "engine/source/document.h"
#include "engine/source/syntax.h"

namespace smallfix {

std::string TreeKey(const std::string& path, const std::string& text) {
  absl::StatusOr<Document> document = Document::Parse(path, text);
  if (!document.ok()) return text;
  char* sexp = ts_node_string(document->root());
  std::string key(sexp);
  std::free(sexp);
  // Identifiers and literals are leaves the S-expression omits; add the token texts.
  WalkTree(document->root(), [&](TSNode node) {
    if (ts_node_child_count(node) == 0 && !IsType(node, "comment")) {
      key += ' ';
      key += document->NodeText(node);
    }
    return Walk::kDescend;
  });
  return key;
}

}  // namespace smallfix
