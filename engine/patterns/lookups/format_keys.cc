// `format-key-rename`: a `str.format` call whose string names a field the call does not pass
// (KeyError: 'node_world_size') while it passes exactly one key the string never names
// (`num_nodes`): the field was renamed on one side only. The string may be written at the call
// or be a module-level constant; the keys are the call's keywords and what its `**` arguments
// unpack, when that is a dict literal (written there, or returned by a def of the module).
#include <re2/re2.h>

#include <optional>
#include <set>
#include <string>

#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/patterns/lookups/helpers.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// The string literal itself, or the one a chain of its methods starts from (`"""...""".strip()`).
std::optional<TSNode> StringOf(TSNode value) {
  while (IsType(value, "call")) {
    const TSNode function = ts_node_child_by_field_name(value, "function", 8);
    if (!IsType(function, "attribute")) return std::nullopt;
    value = ts_node_child_by_field_name(function, "object", 6);
  }
  if (IsType(value, "string")) return value;
  return std::nullopt;
}

// The value of the module-level assignment `name = ...` (the last one), or nullopt.
std::optional<TSNode> ModuleValue(const Document& document, std::string_view name) {
  std::optional<TSNode> value;
  for (TSNode statement : NamedChildrenSkippingComments(document.root())) {
    if (!IsType(statement, "expression_statement")) continue;
    const TSNode assignment = ts_node_named_child(statement, 0);
    if (!IsType(assignment, "assignment")) continue;
    if (document.NodeText(ts_node_child_by_field_name(assignment, "left", 4)) != name) continue;
    value = ts_node_child_by_field_name(assignment, "right", 5);
  }
  return value;
}

// The string keys of a dict literal; nullopt when one is not a plain string.
std::optional<std::set<std::string>> DictKeys(const Document& document, TSNode dict) {
  std::set<std::string> keys;
  for (TSNode pair : NamedChildrenSkippingComments(dict)) {
    std::string key;
    if (!IsType(pair, "pair") ||
        !RE2::FullMatch(document.NodeText(ts_node_child_by_field_name(pair, "key", 3)),
                        R"re(['"](\w+)['"])re", &key)) {
      return std::nullopt;
    }
    keys.insert(key);
  }
  return keys;
}

// What `**value` unpacks: a dict literal, or a call of a module-level def whose only return
// gives one. nullopt when that is not known.
std::optional<std::set<std::string>> UnpackedKeys(const Document& document, TSNode value) {
  if (IsType(value, "dictionary")) return DictKeys(document, value);
  if (!IsType(value, "call")) return std::nullopt;
  const std::string_view callee =
      document.NodeText(ts_node_child_by_field_name(value, "function", 8));
  std::optional<TSNode> returned;
  int returns = 0;
  for (TSNode statement : NamedChildrenSkippingComments(document.root())) {
    if (!IsType(statement, "function_definition") ||
        document.NodeText(ts_node_child_by_field_name(statement, "name", 4)) != callee) {
      continue;
    }
    WalkTree(ts_node_child_by_field_name(statement, "body", 4), [&](TSNode node) {
      if (IsType(node, "function_definition") || IsType(node, "class_definition"))
        return Walk::kSkip;
      if (IsType(node, "return_statement")) {
        ++returns;
        if (ts_node_named_child_count(node) == 1) returned = ts_node_named_child(node, 0);
        return Walk::kSkip;
      }
      return Walk::kDescend;
    });
  }
  if (returns != 1 || !returned || !IsType(*returned, "dictionary")) return std::nullopt;
  return DictKeys(document, *returned);
}

}  // namespace

absl::Status FormatKeyRename(const LookupArgs& args, const MatchContext&, MatchState& state,
                             std::vector<MatchState>&) {
  SMALLFIX_ASSIGN_OR_RETURN(TSNode call, CallNode(args, state));
  const std::string key = LookupArg(args, "key");
  const Document& document = *state.document;
  const TSNode function = ts_node_child_by_field_name(call, "function", 8);
  if (!IsType(function, "attribute") ||
      document.NodeText(ts_node_child_by_field_name(function, "attribute", 9)) != "format") {
    return LookupFails("the call is not a str.format");
  }
  TSNode owner = ts_node_child_by_field_name(function, "object", 6);
  if (IsType(owner, "identifier")) {
    std::optional<TSNode> value = ModuleValue(document, document.NodeText(owner));
    if (!value) return LookupFails(Concat("no module-level `", document.NodeText(owner), " = `"));
    owner = *value;
  }
  std::optional<TSNode> string = StringOf(owner);
  if (!string) return LookupFails("the formatted value is not a string literal");
  const std::string text(document.NodeText(*string));

  // The fields the string names (not `{{`-escaped braces), and the keys the call passes.
  std::set<std::string> fields;
  {
    re2::StringPiece rest(text);
    std::string field;
    static const RE2 kField(R"re((?:^|[^{])\{(\w+)[}:!.\[])re");
    while (RE2::FindAndConsume(&rest, kField, &field)) fields.insert(field);
  }
  if (!fields.contains(key)) return LookupFails(Concat("the string has no field {", key, "}"));
  std::set<std::string> passed;
  for (TSNode argument :
       NamedChildrenSkippingComments(ts_node_child_by_field_name(call, "arguments", 9))) {
    if (IsType(argument, "keyword_argument")) {
      passed.insert(
          std::string(document.NodeText(ts_node_child_by_field_name(argument, "name", 4))));
    } else if (IsType(argument, "dictionary_splat")) {
      std::optional<std::set<std::string>> keys =
          UnpackedKeys(document, ts_node_named_child(argument, 0));
      if (!keys) return LookupFails("a ** argument's keys are not known");
      passed.insert(keys->begin(), keys->end());
    }
  }
  if (passed.contains(key)) return LookupFails(Concat("the call passes `", key, "`"));
  std::vector<std::string> unused;
  for (const std::string& name : passed) {
    if (!fields.contains(name)) unused.push_back(name);
  }
  if (unused.size() != 1) {
    return LookupFails(Concat("the call passes ", std::to_string(unused.size()),
                              " keys the string does not name, not one"));
  }
  std::string renamed = text;
  RE2::GlobalReplace(&renamed, RE2(Concat(R"re(\{)re", key, R"re(([}:!.\[]))re")),
                     Concat("{", unused.front(), "\\1"));
  state.nodes["format_string"] = *string;
  state.bindings["format_string"] = text;
  state.bindings["renamed"] = renamed;
  state.bindings["passed_key"] = unused.front();
  return absl::OkStatus();
}

}  // namespace smallfix
