#include "validators/warm/warm_command.h"

#include <string_view>

#include "validators/pytest_command.h"

namespace smallfix {
namespace {

// Characters whose meaning to /bin/sh a plain argument list cannot keep.
constexpr std::string_view kShellSpecial = "$`\\|;&<>()*?[]{}~#!\n";

// `text` split into words as /bin/sh would split it, or nullopt when it needs more than
// quote removal (kShellSpecial outside single quotes, an unclosed quote).
std::optional<std::vector<std::string>> SplitWords(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\'' || c == '"') {
      const size_t close = text.find(c, i + 1);
      if (close == std::string_view::npos) return std::nullopt;
      const std::string_view quoted = text.substr(i + 1, close - i - 1);
      if (c == '"' && quoted.find_first_of("$`\\!") != std::string_view::npos) return std::nullopt;
      word += quoted;
      i = close;
      continue;
    }
    if (kShellSpecial.find(c) != std::string_view::npos) return std::nullopt;
    word.push_back(c);
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

}  // namespace

std::optional<WarmCommand> WarmCommandOf(const std::string& command,
                                         const std::string& interpreter) {
  const std::optional<std::string> arguments = PytestArguments(command);
  if (!arguments) return std::nullopt;
  std::string_view program = command;
  while (!program.empty() && program[0] == ' ') program.remove_prefix(1);
  program = program.substr(0, program.find(' '));
  WarmCommand warm;
  if (program == "pytest") {
    warm.mode = "script";
  } else if (program == "python" || program == "python3" || program == interpreter) {
    warm.mode = "module";
  } else {
    return std::nullopt;
  }
  std::optional<std::vector<std::string>> args = SplitWords(*arguments);
  if (!args) return std::nullopt;
  warm.args = *std::move(args);
  return warm;
}

}  // namespace smallfix
