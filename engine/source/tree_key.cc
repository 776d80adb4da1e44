#include "engine/source/tree_key.h"

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/source/document.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// Tokens that only delimit: the node types around them already say what they delimit, and
// Python's ast has no trace of them (a trailing comma, brackets, a semicolon).
bool IsPunctuation(std::string_view token) {
  return token.size() == 1 && std::string_view("()[]{},;").find(token[0]) != std::string_view::npos;
}

// Appends `node`'s own part of the key; returns whether its children are walked and whether
// it opened a bracket in the key that its end closes.
struct Entered {
  bool descend = false;
  bool opened = false;
};

Entered Enter(const Document& document, TSNode node, std::string& key) {
  const std::string_view type = ts_node_type(node);
  if (IsComment(node) || type == "line_continuation" || type == "string_end") return {};
  if (!ts_node_is_named(node)) {
    if (!IsPunctuation(type)) (key += ' ') += type;
    return {};
  }
  if (type == "string_start") {
    // The prefix (f, r, b) counts; the quotes do not.
    key += " \"";
    for (char c : document.NodeText(node)) {
      if (c != '"' && c != '\'') key += static_cast<char>(c | 0x20);
    }
    return {};
  }
  if (type == "parenthesized_expression") return {true, false};  // (x) is x
  if (ts_node_child_count(node) == 0) {
    ((key += ' ') += type) += ':';
    key += document.NodeText(node);
    return {};
  }
  (key += " (") += type;
  return {true, true};
}

}  // namespace

std::string TreeKey(const std::string& path, const std::string& text) {
  absl::StatusOr<Document> document = Document::Parse(path, text);
  if (!document.ok()) return text;
  std::string key;
  // A pre-order walk with a cursor (no recursion: long operator chains nest deeply); each
  // node's bracket closes when the walk leaves it.
  std::vector<char> opened;
  TSTreeCursor cursor = ts_tree_cursor_new(document->root());
  auto visit = [&] {
    const Entered entered = Enter(*document, ts_tree_cursor_current_node(&cursor), key);
    opened.push_back(entered.opened);
    return entered.descend;
  };
  bool descend = visit();
  for (bool done = false; !done;) {
    if (descend && ts_tree_cursor_goto_first_child(&cursor)) {
      descend = visit();
      continue;
    }
    for (;;) {
      if (opened.back()) key += ')';
      opened.pop_back();
      if (ts_tree_cursor_goto_next_sibling(&cursor)) {
        descend = visit();
        break;
      }
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        done = true;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
  return key;
}

}  // namespace smallfix
