#ifndef SMALLFIX_ENGINE_INDEX_TREE_WALK_H_
#define SMALLFIX_ENGINE_INDEX_TREE_WALK_H_

#include <tree_sitter/api.h>

#include <cstring>
#include <string_view>

namespace smallfix {

// Calls `visit(child)` for each named child of `node`. A cursor keeps this linear in the
// number of children (ts_node_named_child(i) walks from the first child every time).
template <typename Visit>
void ForEachNamedChild(TSNode node, Visit&& visit) {
  if (ts_node_is_null(node) || ts_node_child_count(node) == 0) return;
  TSTreeCursor cursor = ts_tree_cursor_new(node);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      TSNode child = ts_tree_cursor_current_node(&cursor);
      if (ts_node_is_named(child)) visit(child);
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
}

inline TSNode Field(TSNode node, std::string_view field) {
  return ts_node_child_by_field_name(node, field.data(), static_cast<uint32_t>(field.size()));
}

inline bool Contains(TSNode node, size_t byte) {
  return !ts_node_is_null(node) && ts_node_start_byte(node) <= byte &&
         byte <= ts_node_end_byte(node);
}

// `text` without surrounding whitespace and line continuations.
inline std::string_view Trim(std::string_view text) {
  const size_t start = text.find_first_not_of(" \t\r\n\\");
  if (start == std::string_view::npos) return "";
  const size_t end = text.find_last_not_of(" \t\r\n\\");
  return text.substr(start, end - start + 1);
}

// Nodes whose children can be statements: the walks over definitions and imports descend
// only into these, and skip the expression trees that make up most of a file.
inline bool MayHoldStatements(TSNode node) {
  static constexpr std::string_view kTypes[] = {
      "module",         "block",           "if_statement",  "elif_clause",         "else_clause",
      "for_statement",  "while_statement", "try_statement", "except_clause",       "finally_clause",
      "with_statement", "match_statement", "case_clause",   "decorated_definition"};
  const char* type = ts_node_type(node);
  for (std::string_view candidate : kTypes) {
    if (candidate == type) return true;
  }
  return false;
}

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_INDEX_TREE_WALK_H_
