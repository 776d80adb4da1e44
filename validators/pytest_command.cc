#include "validators/pytest_command.h"

#include <string_view>

namespace smallfix {
namespace {

// The first space-separated word of `*rest`, which then starts at the next word.
std::string_view TakeWord(std::string_view* rest) {
  const size_t end = rest->find(' ');
  const std::string_view first = rest->substr(0, end);
  rest->remove_prefix(end == std::string_view::npos ? rest->size() : end);
  while (!rest->empty() && (*rest)[0] == ' ') rest->remove_prefix(1);
  return first;
}

// A list, pipe, redirection or substitution outside quotes: `pytest ...; rm x`, `... | tee`.
// Flags appended to such a command would go to its last part, not to pytest.
bool HasShellOperator(std::string_view text) {
  char quote = 0;
  for (const char c : text) {
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (std::string_view(";&|<>`\n").find(c) != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::optional<std::string> PytestArguments(const std::string& command) {
  if (HasShellOperator(command)) return std::nullopt;
  std::string_view rest = command;
  while (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
  const std::string_view first = TakeWord(&rest);
  const size_t slash = first.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? first : first.substr(slash + 1);
  if (base == "pytest" || base == "py.test") return std::string(rest);
  if (base.starts_with("python")) {
    if (TakeWord(&rest) != "-m") return std::nullopt;
    if (TakeWord(&rest) != "pytest") return std::nullopt;
    return std::string(rest);
  }
  return std::nullopt;
}

std::string ShellQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  return out + "'";
}

}  // namespace smallfix
