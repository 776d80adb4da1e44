#include "engine/forge/link_header.h"

#include <cctype>

#include "engine/base/text.h"

namespace smallfix {
namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

// Whether the parameters after one <url> (`; rel="next"; title="x"`) hold rel=next.
bool IsNext(std::string_view params) {
  while (!params.empty()) {
    const size_t semicolon = params.find(';');
    std::string_view param = StripSpace(params.substr(0, semicolon));
    params =
        semicolon == std::string_view::npos ? std::string_view() : params.substr(semicolon + 1);
    while (!param.empty() && param.back() == ',')
      param = StripSpace(param.substr(0, param.size() - 1));
    const size_t equals = param.find('=');
    if (equals == std::string_view::npos ||
        !EqualsIgnoreCase(StripSpace(param.substr(0, equals)), "rel"))
      continue;
    std::string_view value = StripSpace(param.substr(equals + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
      value = value.substr(1, value.size() - 2);
    // rel may list several relations separated by blanks.
    while (!value.empty()) {
      const size_t blank = value.find(' ');
      if (EqualsIgnoreCase(value.substr(0, blank), "next")) return true;
      value = blank == std::string_view::npos ? std::string_view()
                                              : StripSpace(value.substr(blank + 1));
    }
  }
  return false;
}

}  // namespace

std::string NextPageUrl(std::string_view link_header) {
  // Entries are separated by commas outside <...>; URLs may hold commas themselves.
  size_t at = 0;
  while (at < link_header.size()) {
    const size_t open = link_header.find('<', at);
    if (open == std::string_view::npos) return "";
    const size_t close = link_header.find('>', open);
    if (close == std::string_view::npos) return "";
    size_t end = link_header.find('<', close);
    if (end == std::string_view::npos) end = link_header.size();
    if (IsNext(link_header.substr(close + 1, end - close - 1))) {
      return std::string(link_header.substr(open + 1, close - open - 1));
    }
    at = end;
  }
  return "";
}

}  // namespace smallfix
