#include "engine/patterns/placeholders.h"

#include <cctype>

#include "engine/base/concat.h"

namespace smallfix {
namespace {

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

// Calls on_text(literal) and on_name(name, optional) for the pieces of `text`, left to right.
// `{name?}` is optional: it expands to nothing when unbound (a capture only one of a
// query's patterns has).
template <typename OnText, typename OnName>
void Walk(std::string_view text, OnText on_text, OnName on_name) {
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {
      on_text(text.substr(i, 1));
      i += 2;
      continue;
    }
    if (c == '{') {
      size_t end = i + 1;
      while (end < text.size() && IsNameChar(text[end])) ++end;
      const bool optional = end + 1 < text.size() && text[end] == '?' && text[end + 1] == '}';
      if (end < text.size() && (text[end] == '}' || optional) && end > i + 1) {
        on_name(text.substr(i + 1, end - i - 1), optional);
        i = end + (optional ? 2 : 1);
        continue;
      }
    }
    on_text(text.substr(i, 1));
    ++i;
  }
}

}  // namespace

std::vector<std::string> PlaceholderNames(std::string_view text) {
  std::vector<std::string> names;
  Walk(
      text, [](std::string_view) {},
      [&](std::string_view name, bool) { names.emplace_back(name); });
  return names;
}

absl::StatusOr<std::string> Expand(std::string_view text, const Bindings& bindings) {
  std::string out;
  std::string missing;
  Walk(
      text, [&](std::string_view literal) { out.append(literal); },
      [&](std::string_view name, bool optional) {
        auto it = bindings.find(name);
        if (it == bindings.end()) {
          if (missing.empty() && !optional) missing = std::string(name);
          return;
        }
        out.append(it->second);
      });
  if (!missing.empty())
    return absl::NotFoundError(Concat("placeholder {", missing, "} is not bound"));
  return out;
}

}  // namespace smallfix
