#ifndef SMALLFIX_ENGINE_SOURCE_CALL_EDITS_H_
#define SMALLFIX_ENGINE_SOURCE_CALL_EDITS_H_

#include <tree_sitter/api.h>

#include <optional>
#include <string_view>

#include "absl/status/statusor.h"
#include "engine/source/document.h"
#include "engine/source/edit.h"

namespace smallfix {

// Edits of a call's keyword arguments. `call` is a `call` node.

// The `keyword_argument` node `name=...` of the call, if it has one.
std::optional<TSNode> FindKeywordArgument(const Document& document, TSNode call,
                                          std::string_view name);

// Appends `name=value`; AlreadyExists when the call passes `name` already.
absl::StatusOr<Edit> AddKeywordArgument(const Document& document, TSNode call,
                                        std::string_view name, std::string_view value);
// Removes `name=...` with its comma; NotFound when the call does not pass it.
absl::StatusOr<Edit> DropKeywordArgument(const Document& document, TSNode call,
                                         std::string_view name);
// Renames the keyword `from=` to `to=`, keeping the value.
absl::StatusOr<Edit> RenameKeywordArgument(const Document& document, TSNode call,
                                           std::string_view from, std::string_view to);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SOURCE_CALL_EDITS_H_
