#ifndef SMALLFIX_ENGINE_BASE_CONCAT_H_
#define SMALLFIX_ENGINE_BASE_CONCAT_H_

#include <string>
#include <string_view>

#include "absl/strings/string_view.h"

namespace smallfix {

// Concat("a", std_string_view, absl_status.message(), std_string): one string.
//
// Why not absl::StrCat: Debian's Abseil is built with its own absl::string_view (not an
// alias of std::string_view), and StrCat does not take std::string_view there. The engine
// uses std::string_view throughout, so strings are joined here.
namespace concat_internal {
inline std::string_view View(std::string_view text) { return text; }
inline std::string_view View(const std::string& text) { return text; }
inline std::string_view View(const char* text) { return text; }
#if !defined(ABSL_USES_STD_STRING_VIEW)
inline std::string_view View(absl::string_view text) { return {text.data(), text.size()}; }
#endif
}  // namespace concat_internal

template <typename... Parts>
std::string Concat(const Parts&... parts) {
  std::string out;
  out.reserve((concat_internal::View(parts).size() + ... + 0));
  (out.append(concat_internal::View(parts)), ...);
  return out;
}

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_BASE_CONCAT_H_
