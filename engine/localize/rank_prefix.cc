#include "engine/localize/rank_prefix.h"

#include <re2/re2.h>

#include <cctype>
#include <cstdlib>
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

// Ray and vLLM worker prefixes: "(pid=4417) ", "(RayWorkerWrapper pid=4417, ip=10.0.0.3) ",
// "(VllmWorker rank=1 pid=4417) ". Sets the rank when the prefix names one, and the stream.
bool StripProcessPrefix(std::string_view* line, int* rank, int* stream) {
  std::string_view text = *line;
  if (text.size() < 7 || text[0] != '(') return false;
  static const RE2* const process = new RE2(
      R"re(\((?:[A-Za-z_][\w.]* )?(?:rank=(\d{1,6}) )?pid=(\d{1,9})(?:, [^)]{0,200})?\) ?)re");
  std::string rank_digits, pid_digits;
  re2::StringPiece input(text.data(), text.size());
  if (!RE2::Consume(&input, *process, &rank_digits, &pid_digits)) return false;
  const int pid = std::atoi(pid_digits.c_str());
  if (!rank_digits.empty()) {
    *rank = std::atoi(rank_digits.c_str());
    *stream = *rank;
  } else {
    *stream = 1'000'000 + pid % 1'000'000;  // one stream per process, apart from ranks
  }
  line->remove_prefix(text.size() - input.size());
  return true;
}

// Logger headers put before every line of a logged traceback: vLLM
// "ERROR 04-08 04:00:01 [core.py:390] ", glog "[E0503 10:40:41.712 4100 file.cpp:475] " (also
// without the thread id), NeMo "[NeMo W 2024-03-20 18:55:16 nemo_logging:349] ", and the
// subprocess echo "stderr: ".
std::string_view StripLoggerHeader(std::string_view text) {
  if (text.size() < 8) return text;
  const char c = text[0];
  if (c != '[' && c != 'I' && c != 'W' && c != 'E' && c != 'D' && c != 'C' && c != 's') {
    return text;
  }
  if (text.starts_with("stderr: ") || text.starts_with("stdout: ")) return text.substr(8);
  static const RE2* const header = new RE2(
      R"re((?:(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \[[\w.-]+:\d+\]|\[?[IWEF]\d{4} \d\d:\d\d:\d\d(?:\.\d+)?(?: +\d+)? [\w.-]+:\d+\]|\[NeMo [IWEDC] \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [\w.-]+:\d+\]) ?)re");
  re2::StringPiece input(text.data(), text.size());
  if (!RE2::Consume(&input, *header)) return text;
  return text.substr(text.size() - input.size());
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
  for (std::string_view level :
       {"INFO", "WARNING", "WARN", "ERROR", "DEBUG", "CRITICAL", "FATAL"}) {
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
    if (!rank) {
      if (StripProcessPrefix(&text, &out.rank, &out.stream)) continue;
      break;
    }
    out.rank = *rank;
    out.stream = *rank;
  }
  text = StripTimestamp(text);
  out.text = StripLoggerHeader(text);
  return out;
}

}  // namespace smallfix
