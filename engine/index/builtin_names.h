#ifndef SMALLFIX_ENGINE_INDEX_BUILTIN_NAMES_H_
#define SMALLFIX_ENGINE_INDEX_BUILTIN_NAMES_H_

#include <span>
#include <string_view>

namespace smallfix {

// The names Python 3.11's builtins module provides (and the module dunders every file has),
// sorted. True, False and None are keywords, not names.
std::span<const std::string_view> BuiltinNames();
bool IsBuiltinName(std::string_view name);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_INDEX_BUILTIN_NAMES_H_
