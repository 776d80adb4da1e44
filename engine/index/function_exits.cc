#include "engine/index/function_exits.h"

#include "engine/source/syntax.h"

namespace smallfix {
namespace {

bool BlockEnds(const Document& document, TSNode block) {
  const std::vector<TSNode> body = NamedChildrenSkippingComments(block);
  return !body.empty() && EndsControl(document, body.back());
}

}  // namespace

std::vector<TSNode> ReturnStatements(TSNode def) {
  std::vector<TSNode> returns;
  WalkTree(ts_node_child_by_field_name(def, "body", 4), [&](TSNode node) {
    if (IsType(node, "function_definition") || IsType(node, "lambda") ||
        IsType(node, "class_definition")) {
      return Walk::kSkip;
    }
    if (IsType(node, "return_statement")) returns.push_back(node);
    return Walk::kDescend;
  });
  return returns;
}

bool EndsControl(const Document& document, TSNode statement) {
  if (IsType(statement, "return_statement") || IsType(statement, "raise_statement")) return true;
  if (IsType(statement, "while_statement")) {
    return document.NodeText(ts_node_child_by_field_name(statement, "condition", 9)) == "True";
  }
  if (!IsType(statement, "if_statement")) return false;
  if (!BlockEnds(document, ts_node_child_by_field_name(statement, "consequence", 11))) return false;
  bool has_else = false;
  for (uint32_t i = 0; i < ts_node_named_child_count(statement); ++i) {
    TSNode clause = ts_node_named_child(statement, i);
    if (IsType(clause, "elif_clause")) {
      if (!BlockEnds(document, ts_node_child_by_field_name(clause, "consequence", 11)))
        return false;
    } else if (IsType(clause, "else_clause")) {
      has_else = true;
      if (!BlockEnds(document, ts_node_child_by_field_name(clause, "body", 4))) return false;
    }
  }
  return has_else;
}

TSNode FallThroughStatement(const Document& document, TSNode def) {
  const std::vector<TSNode> body =
      NamedChildrenSkippingComments(ts_node_child_by_field_name(def, "body", 4));
  if (body.empty() || EndsControl(document, body.back())) return TSNode{};
  return body.back();
}

}  // namespace smallfix
