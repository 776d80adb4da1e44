#ifndef SMALLFIX_ENGINE_PATTERNS_PLACEHOLDERS_H_
#define SMALLFIX_ENGINE_PATTERNS_PLACEHOLDERS_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace smallfix {

// Placeholder values by name: captures' texts, symptom groups, look-up results.
using Bindings = std::map<std::string, std::string, std::less<>>;

// The names of the `{name}` placeholders in `text`, in order. `{{` and `}}` are literal
// braces. Names are letters, digits, '_' and '.'.
std::vector<std::string> PlaceholderNames(std::string_view text);

// `text` with every placeholder replaced; NotFound naming the first unbound one.
absl::StatusOr<std::string> Expand(std::string_view text, const Bindings& bindings);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_PATTERNS_PLACEHOLDERS_H_
