#ifndef SMALLFIX_ENGINE_BASE_TEXT_H_
#define SMALLFIX_ENGINE_BASE_TEXT_H_

#include <cctype>
#include <string_view>

namespace smallfix {

// Whether `c` can be part of an ASCII Python name: a letter, a digit or '_'. Used to tell
// whether an offset falls inside a word (whole-token matches, edit boundaries).
inline bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// `text` without the whitespace (space, tab, newline, ...) at either end. Debian's Abseil has
// its own string_view, so absl::StripAsciiWhitespace does not take a std::string_view.
inline std::string_view StripSpace(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_BASE_TEXT_H_
