#ifndef SMALLFIX_TESTS_SOURCE_TEST_UTIL_H_
#define SMALLFIX_TESTS_SOURCE_TEST_UTIL_H_

#include <tree_sitter/api.h>

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "engine/source/document.h"
#include "engine/source/edit.h"
#include "engine/source/syntax.h"
#include "gtest/gtest.h"

namespace smallfix::testing {

inline Document Parse(std::string text, std::string path = "pkg/mod.py") {
  absl::StatusOr<Document> document = Document::Parse(std::move(path), std::move(text));
  EXPECT_TRUE(document.ok()) << document.status();
  return *std::move(document);
}

// The first node (pre-order) of `type` whose text starts with `prefix`; a null node if none.
inline TSNode Find(const Document& document, std::string_view type, std::string_view prefix = "") {
  TSNode found{};
  WalkTree(document.root(), [&](TSNode node) {
    if (type == ts_node_type(node) && document.NodeText(node).starts_with(prefix)) {
      found = node;
      return Walk::kStop;
    }
    return Walk::kDescend;
  });
  return found;
}

// Applies one edit, checks the result still parses as cleanly as before, returns its text.
inline std::string ApplyChecked(const Document& document, const absl::StatusOr<Edit>& edit) {
  EXPECT_TRUE(edit.ok()) << edit.status();
  if (!edit.ok()) return "";
  EditSet edits;
  EXPECT_TRUE(edits.Add(*edit).ok());
  absl::StatusOr<Document> edited = ApplyEdits(document, edits);
  EXPECT_TRUE(edited.ok()) << edited.status();
  if (!edited.ok()) return "";
  return std::string(edited->text());
}

}  // namespace smallfix::testing

#endif  // SMALLFIX_TESTS_SOURCE_TEST_UTIL_H_
