#include "engine/source/call_edits.h"

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/source/comma_list.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

absl::StatusOr<TSNode> Arguments(const Document& document, TSNode call) {
  TSNode arguments = ts_node_child_by_field_name(call, "arguments", 9);
  if (!IsType(call, "call") || !IsType(arguments, "argument_list")) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s:%d: `%s` is not a call with an argument list", document.path(),
                        document.NodeStart(call).line + 1, document.NodeText(call).substr(0, 40)));
  }
  return arguments;
}

}  // namespace

std::optional<TSNode> FindKeywordArgument(const Document& document, TSNode call,
                                          std::string_view name) {
  TSNode arguments = ts_node_child_by_field_name(call, "arguments", 9);
  if (ts_node_is_null(arguments)) return std::nullopt;
  for (TSNode item : ListItems(arguments)) {
    if (!IsType(item, "keyword_argument")) continue;
    TSNode key = ts_node_child_by_field_name(item, "name", 4);
    if (document.NodeText(key) == name) return item;
  }
  return std::nullopt;
}

absl::StatusOr<Edit> AddKeywordArgument(const Document& document, TSNode call,
                                        std::string_view name, std::string_view value) {
  SMALLFIX_ASSIGN_OR_RETURN(TSNode arguments, Arguments(document, call));
  if (FindKeywordArgument(document, call, name)) {
    return absl::AlreadyExistsError(absl::StrFormat("%s:%d: the call already passes `%s=`",
                                                    document.path(),
                                                    document.NodeStart(call).line + 1, name));
  }
  return InsertListItem(document, arguments, std::nullopt, Concat(name, "=", value));
}

absl::StatusOr<Edit> DropKeywordArgument(const Document& document, TSNode call,
                                         std::string_view name) {
  SMALLFIX_ASSIGN_OR_RETURN(TSNode arguments, Arguments(document, call));
  std::optional<TSNode> keyword = FindKeywordArgument(document, call, name);
  if (!keyword) {
    return absl::NotFoundError(absl::StrFormat("%s:%d: the call does not pass `%s=`",
                                               document.path(), document.NodeStart(call).line + 1,
                                               name));
  }
  return RemoveListItem(document, arguments, *keyword);
}

absl::StatusOr<Edit> RenameKeywordArgument(const Document& document, TSNode call,
                                           std::string_view from, std::string_view to) {
  std::optional<TSNode> keyword = FindKeywordArgument(document, call, from);
  if (!keyword) {
    return absl::NotFoundError(absl::StrFormat("%s:%d: the call does not pass `%s=`",
                                               document.path(), document.NodeStart(call).line + 1,
                                               from));
  }
  if (FindKeywordArgument(document, call, to)) {
    return absl::AlreadyExistsError(absl::StrFormat("%s:%d: the call already passes `%s=`",
                                                    document.path(),
                                                    document.NodeStart(call).line + 1, to));
  }
  TSNode key = ts_node_child_by_field_name(*keyword, "name", 4);
  return Edit{ts_node_start_byte(key), ts_node_end_byte(key), std::string(to)};
}

}  // namespace smallfix
