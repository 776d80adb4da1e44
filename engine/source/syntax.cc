#include "engine/source/syntax.h"

#include <cstring>

namespace smallfix {

bool IsType(TSNode node, std::string_view type) {
  return !ts_node_is_null(node) && type == ts_node_type(node);
}

bool IsComment(TSNode node) { return IsType(node, "comment"); }

bool IsStatement(TSNode node) {
  if (ts_node_is_null(node) || !ts_node_is_named(node) || IsComment(node)) return false;
  TSNode parent = ts_node_parent(node);
  return IsType(parent, "module") || IsType(parent, "block");
}

std::optional<TSNode> StatementAt(const Document& document, size_t byte) {
  const uint32_t offset = static_cast<uint32_t>(byte);
  TSNode node = ts_node_descendant_for_byte_range(document.root(), offset, offset);
  for (; !ts_node_is_null(node); node = ts_node_parent(node)) {
    if (IsStatement(node)) return node;
  }
  return std::nullopt;
}

std::optional<TSNode> StatementAtLine(const Document& document, int line) {
  if (line < 0 || line >= document.lines().line_count()) return std::nullopt;
  const std::string_view text = document.lines().Line(line);
  const size_t indent = text.find_first_not_of(" \t\f");
  if (indent == std::string_view::npos) return std::nullopt;
  return StatementAt(document, document.lines().LineStart(line) + indent);
}

bool HasCall(TSNode node) {
  bool found = false;
  WalkTree(node, [&](TSNode n) {
    found |= IsType(n, "call") || IsType(n, "await");
    return found ? Walk::kStop : Walk::kDescend;
  });
  return found;
}

std::optional<TSNode> EnclosingOfType(TSNode node, std::initializer_list<std::string_view> types) {
  for (; !ts_node_is_null(node); node = ts_node_parent(node)) {
    for (std::string_view type : types) {
      if (IsType(node, type)) return node;
    }
  }
  return std::nullopt;
}

TSNode ClassOfMethod(TSNode function) {
  TSNode parent = ts_node_parent(function);
  if (IsType(parent, "decorated_definition")) parent = ts_node_parent(parent);
  if (!IsType(parent, "block")) return TSNode{};
  TSNode cls = ts_node_parent(parent);
  return IsType(cls, "class_definition") ? cls : TSNode{};
}

std::vector<TSNode> NamedChildrenSkippingComments(TSNode node) {
  std::vector<TSNode> children;
  const uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_named_child(node, i);
    if (!IsComment(child)) children.push_back(child);
  }
  return children;
}

std::string_view LeadingWhitespace(const Document& document, int line) {
  const std::string_view text = document.lines().Line(line);
  return text.substr(0, std::min(text.find_first_not_of(" \t\f"), text.size()));
}

bool StartsItsLine(const Document& document, TSNode node) {
  const Position start = document.NodeStart(node);
  return static_cast<size_t>(start.column) == LeadingWhitespace(document, start.line).size();
}

}  // namespace smallfix
