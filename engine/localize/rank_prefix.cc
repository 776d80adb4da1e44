#include "engine/localize/rank_prefix.h"

#include <cctype>
#include <optional>

namespace smallfix {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Parses up to 6 digits at `text[*i]`; nullopt when there are none.
std::optional<int> ReadNumber(std::string_view text, size_t* i) {
  const size_t start = *i;
  int value = 0;
  while (*i < text.size() && IsDigit(text[*i]) && *i - start < 6) {
    value = value * 10 + (text[*i] - '0');
    ++*i;
  }
  if (*i == start) return std::nullopt;
  return value;
}

// "[rank1]:", "[default1]:", "[1,0]<stdout>:" / "[1,0]<stderr>:".
std::optional<int> StripBracketPrefix(std::string_view* line) {
  std::string_view text = *line;
  if (text.empty() || text[0] != '[') return std::nullopt;
  for (std::string_view word : {std::string_view("rank"), std::string_view("default")}) {
    if (text.substr(1, word.size()) != word) continue;
    size_t i = 1 + word.size();
    const std::optional<int> rank = ReadNumber(text, &i);
    if (!rank || text.substr(i, 2) != "]:") return std::nullopt;
    line->remove_prefix(i + 2);
    return rank;
  }
  size_t i = 1;
  if (!ReadNumber(text, &i) || i >= text.size() || text[i] != ',') return std::nullopt;
  ++i;
  const std::optional<int> rank = ReadNumber(text, &i);
  if (!rank || text.substr(i, 1) != "]") return std::nullopt;
  ++i;
  for (std::string_view tail : {std::string_view("<stdout>:"), std::string_view("<stderr>:")}) {
    if (text.substr(i, tail.size()) == tail) {
      line->remove_prefix(i + tail.size());
      return rank;
    }
  }
  return std::nullopt;
}

// srun -l: "N: " or " N: ". A Python traceback line never starts with digits and a
// colon, so accepting it on every line is safe for the lines that matter.
std::optional<int> StripSrunPrefix(std::string_view* line) {
  std::string_view text = *line;
  size_t i = 0;
  while (i < text.size() && i < 3 && text[i] == ' ') ++i;
  const std::optional<int> rank = ReadNumber(text, &i);
  if (!rank || text.substr(i, 2) != ": ") return std::nullopt;
  line->remove_prefix(i + 2);
  return rank;
}

// "2024-05-01 10:22:03,114", "2024-05-01T10:22:03.114512Z", optionally in brackets, then
// an optional level; returns the text after them, or the line unchanged.
std::string_view StripTimestamp(std::string_view text) {
  std::string_view rest = text;
  const bool bracket = !rest.empty() && rest[0] == '[';
  if (bracket) rest.remove_prefix(1);
  // YYYY-MM-DD[T ]HH:MM:SS
  static constexpr std::string_view kShape = "dddd-dd-dd?dd:dd:dd";
  if (rest.size() < kShape.size()) return text;
  for (size_t i = 0; i < kShape.size(); ++i) {
    const char c = rest[i];
    if (kShape[i] == 'd' && !IsDigit(c)) return text;
    if (kShape[i] == '-' && c != '-') return text;
    if (kShape[i] == ':' && c != ':') return text;
    if (kShape[i] == '?' && c != 'T' && c != ' ') return text;
  }
  size_t i = kShape.size();
  if (i < rest.size() && (rest[i] == ',' || rest[i] == '.')) {
    ++i;
    while (i < rest.size() && IsDigit(rest[i])) ++i;
  }
  if (i < rest.size() && rest[i] == 'Z') ++i;
  if (i < rest.size() && (rest[i] == '+' || rest[i] == '-') && i + 1 < rest.size() &&
      IsDigit(rest[i + 1])) {
    ++i;
    while (i < rest.size() && (IsDigit(rest[i]) || rest[i] == ':')) ++i;
  }
  if (bracket) {
    if (i >= rest.size() || rest[i] != ']') return text;
    ++i;
  }
  rest.remove_prefix(i);
  if (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
  // An optional level: "[INFO] ", "INFO ", "ERROR:".
  for (std::string_view level : {"INFO", "WARNING", "WARN", "ERROR", "DEBUG", "CRITICAL",
                                 "FATAL"}) {
    std::string_view candidate = rest;
    const bool level_bracket = !candidate.empty() && candidate[0] == '[';
    if (level_bracket) candidate.remove_prefix(1);
    if (!candidate.starts_with(level)) continue;
    candidate.remove_prefix(level.size());
    if (level_bracket) {
      if (candidate.empty() || candidate[0] != ']') continue;
      candidate.remove_prefix(1);
    }
    if (!candidate.empty() && (candidate[0] == ' ' || candidate[0] == ':')) {
      candidate.remove_prefix(1);
      while (!candidate.empty() && candidate[0] == ' ' && level_bracket) candidate.remove_prefix(1);
    }
    rest = candidate;
    break;
  }
  return rest;
}

}  // namespace

PrefixedLine SplitRankPrefix(std::string_view line) {
  PrefixedLine out;
  std::string_view text = line;
  for (int round = 0; round < 3; ++round) {
    std::optional<int> rank = StripBracketPrefix(&text);
    if (!rank && round == 0) rank = StripSrunPrefix(&text);
    if (!rank) break;
    out.rank = *rank;
  }
  out.text = StripTimestamp(text);
  return out;
}

}  // namespace smallfix
