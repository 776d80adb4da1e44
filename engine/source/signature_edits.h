#ifndef SMALLFIX_ENGINE_SOURCE_SIGNATURE_EDITS_H_
#define SMALLFIX_ENGINE_SOURCE_SIGNATURE_EDITS_H_

#include <tree_sitter/api.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/source/document.h"
#include "engine/source/edit.h"

namespace smallfix {

// One parameter of a def, as Python sees it.
struct Parameter {
  enum class Kind {
    kPositionalOrKeyword,
    kPositionalOnly,
    kVarPositional,
    kKeywordOnly,
    kVarKeyword
  };
  std::string name;  // without * or **; empty for the bare `*` and `/` markers
  Kind kind = Kind::kPositionalOrKeyword;
  bool has_default = false;
  TSNode node;
};

// The parameters of a `function_definition`, in order, with their kinds.
std::vector<Parameter> Parameters(const Document& document, TSNode function);

// Adds `name` (with `=default_value` unless it is empty) to `function`'s parameters where
// Python allows it and callers are not disturbed: after `*args` or `*` when the def has one
// (keyword-only), else at the end of the named parameters, always before `**kwargs`.
// AlreadyExists when the name is taken; FailedPrecondition when a parameter without a
// default would follow one with a default.
absl::StatusOr<Edit> AddParameter(const Document& document, TSNode function, std::string_view name,
                                  std::string_view default_value);

// Sets (or replaces) the default of parameter `name`.
absl::StatusOr<Edit> SetParameterDefault(const Document& document, TSNode function,
                                         std::string_view name, std::string_view default_value);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SOURCE_SIGNATURE_EDITS_H_
