#include "engine/source/signature_edits.h"

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/source/comma_list.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

TSNode ParameterList(TSNode function) {
  return ts_node_child_by_field_name(function, "parameters", 10);
}

// The identifier a parameter node binds.
std::string ParameterName(const Document& document, TSNode node) {
  if (IsType(node, "identifier")) return std::string(document.NodeText(node));
  if (IsType(node, "default_parameter") || IsType(node, "typed_default_parameter")) {
    return std::string(document.NodeText(ts_node_child_by_field_name(node, "name", 4)));
  }
  // typed_parameter, list_splat_pattern, dictionary_splat_pattern: the first identifier.
  for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) {
    TSNode child = ts_node_named_child(node, i);
    if (IsType(child, "identifier")) return std::string(document.NodeText(child));
    if (IsType(child, "list_splat_pattern") || IsType(child, "dictionary_splat_pattern")) {
      return ParameterName(document, child);
    }
  }
  return "";
}

// A typed_parameter wraps `*args: T` and `**kw: T` too.
bool Contains(TSNode node, std::string_view type) {
  if (IsType(node, type)) return true;
  return IsType(node, "typed_parameter") && ts_node_named_child_count(node) > 0 &&
         IsType(ts_node_named_child(node, 0), type);
}

}  // namespace

std::vector<Parameter> Parameters(const Document& document, TSNode function) {
  std::vector<Parameter> parameters;
  TSNode list = ParameterList(function);
  if (ts_node_is_null(list)) return parameters;
  bool after_star = false;
  for (TSNode node : ListItems(list)) {
    Parameter parameter;
    parameter.node = node;
    parameter.name = ParameterName(document, node);
    parameter.has_default =
        IsType(node, "default_parameter") || IsType(node, "typed_default_parameter");
    if (IsType(node, "positional_separator")) {
      // Everything so far was positional-only.
      for (Parameter& earlier : parameters) {
        if (earlier.kind == Parameter::Kind::kPositionalOrKeyword) {
          earlier.kind = Parameter::Kind::kPositionalOnly;
        }
      }
      continue;
    }
    if (IsType(node, "keyword_separator")) {
      after_star = true;
      continue;
    }
    if (Contains(node, "list_splat_pattern")) {
      parameter.kind = Parameter::Kind::kVarPositional;
      after_star = true;
    } else if (Contains(node, "dictionary_splat_pattern")) {
      parameter.kind = Parameter::Kind::kVarKeyword;
    } else if (after_star) {
      parameter.kind = Parameter::Kind::kKeywordOnly;
    }
    parameters.push_back(std::move(parameter));
  }
  return parameters;
}

absl::StatusOr<Edit> AddParameter(const Document& document, TSNode function, std::string_view name,
                                  std::string_view default_value) {
  TSNode list = ParameterList(function);
  if (!IsType(function, "function_definition") || ts_node_is_null(list)) {
    return absl::InvalidArgumentError(absl::StrFormat("%s:%d: not a function definition",
                                                      document.path(),
                                                      document.NodeStart(function).line + 1));
  }
  const std::vector<Parameter> parameters = Parameters(document, function);
  // `*args` and `**kwargs` have their own places: before keyword-only parameters and last.
  if (name.starts_with("*")) {
    const bool keywords = name.starts_with("**");
    for (const Parameter& parameter : parameters) {
      if (parameter.kind ==
          (keywords ? Parameter::Kind::kVarKeyword : Parameter::Kind::kVarPositional)) {
        return absl::AlreadyExistsError(absl::StrFormat(
            "%s:%d: the def already takes %s", document.path(),
            document.NodeStart(function).line + 1, document.NodeText(parameter.node)));
      }
    }
    std::optional<TSNode> at;
    for (const Parameter& parameter : parameters) {
      const bool stop = keywords ? false
                                 : parameter.kind == Parameter::Kind::kKeywordOnly ||
                                       parameter.kind == Parameter::Kind::kVarKeyword;
      if (stop) {
        at = parameter.node;
        break;
      }
    }
    if (!keywords) {
      for (TSNode node : ListItems(list)) {
        if (IsType(node, "keyword_separator")) {
          return absl::FailedPreconditionError(
              absl::StrFormat("%s:%d: the def has a bare `*`; it cannot also take %s",
                              document.path(), document.NodeStart(function).line + 1, name));
        }
      }
    }
    return InsertListItem(document, list, at, name);
  }
  std::optional<TSNode> before;
  bool keyword_only = false, earlier_default = false;
  for (const Parameter& parameter : parameters) {
    if (parameter.name == name) {
      return absl::AlreadyExistsError(absl::StrFormat(
          "%s:%d: `%s` already has a parameter `%s`", document.path(),
          document.NodeStart(function).line + 1,
          document.NodeText(ts_node_child_by_field_name(function, "name", 4)), name));
    }
    if (parameter.kind == Parameter::Kind::kVarKeyword) before = parameter.node;
    if (parameter.kind == Parameter::Kind::kVarPositional) keyword_only = true;
    if (parameter.kind == Parameter::Kind::kKeywordOnly) keyword_only = true;
    if (parameter.has_default && parameter.kind != Parameter::Kind::kKeywordOnly) {
      earlier_default = true;
    }
  }
  for (TSNode node : ListItems(list)) keyword_only |= IsType(node, "keyword_separator");
  if (default_value.empty() && earlier_default && !keyword_only) {
    return absl::FailedPreconditionError(
        absl::StrFormat("%s:%d: `%s` without a default cannot follow parameters that have defaults",
                        document.path(), document.NodeStart(function).line + 1, name));
  }
  const std::string item =
      default_value.empty() ? std::string(name) : Concat(name, "=", default_value);
  return InsertListItem(document, list, before, item);
}

absl::StatusOr<Edit> SetParameterDefault(const Document& document, TSNode function,
                                         std::string_view name, std::string_view default_value) {
  for (const Parameter& parameter : Parameters(document, function)) {
    if (parameter.name != name) continue;
    if (parameter.kind == Parameter::Kind::kVarPositional ||
        parameter.kind == Parameter::Kind::kVarKeyword) {
      return absl::FailedPreconditionError(
          absl::StrFormat("%s:%d: `%s` is a * or ** parameter and cannot have a default",
                          document.path(), document.NodeStart(parameter.node).line + 1, name));
    }
    if (parameter.has_default) {
      TSNode value = ts_node_child_by_field_name(parameter.node, "value", 5);
      return Edit{ts_node_start_byte(value), ts_node_end_byte(value), std::string(default_value)};
    }
    const size_t at = ts_node_end_byte(parameter.node);
    // `x: int` gets ` = value` (PEP 8 spacing with annotations), `x` gets `=value`.
    const bool typed = IsType(parameter.node, "typed_parameter");
    return Edit{at, at, Concat(typed ? " = " : "=", default_value)};
  }
  return absl::NotFoundError(absl::StrFormat("%s:%d: the def has no parameter `%s`",
                                             document.path(), document.NodeStart(function).line + 1,
                                             name));
}

}  // namespace smallfix
