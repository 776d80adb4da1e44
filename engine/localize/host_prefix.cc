#include "engine/localize/host_prefix.h"

#include <algorithm>

namespace smallfix {
namespace {

// Stream keys of host streams start here, above the rank and process keys of rank_prefix.h.
constexpr int kHostStreamBase = 100'000'000;
constexpr size_t kMaxStreams = 100'000;

bool HostChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_';
}

// Words that begin log lines with ": " and are never hosts: levels, notes, exception names.
bool NotAHost(std::string_view word) {
  static constexpr std::string_view kWords[] = {
      "INFO",   "WARNING", "WARN", "ERROR", "DEBUG", "CRITICAL", "FATAL", "Error",
      "error",  "warning", "info", "note",  "Note",  "hint",     "Hint",  "stderr",
      "stdout", "E",       "W",    "I",     "D",     "F",        "C",     "Traceback"};
  if (std::find(std::begin(kWords), std::end(kWords), word) != std::end(kWords)) return true;
  if (std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return true;  // srun -l's "3: " is a rank, read by rank_prefix.h
  }
  return word.find("Error") != std::string_view::npos ||
         word.find("Exception") != std::string_view::npos ||
         word.find("Warning") != std::string_view::npos;
}

// The start of a traceback or stack dump, after any rank or logger prefix.
bool StartsTrace(std::string_view rest) {
  const std::string_view text = SplitRankPrefix(rest).text;
  const size_t start = text.find_first_not_of(" \t");
  if (start == std::string_view::npos) return false;
  const std::string_view trimmed = text.substr(start);
  return trimmed.starts_with("Traceback (most recent call last):") ||
         trimmed.starts_with("File \"") || trimmed.starts_with("Stack (most recent call first):") ||
         trimmed.starts_with("Current thread 0x") ||
         (trimmed.starts_with("Thread 0x") &&
          trimmed.find("most recent call first") != trimmed.npos);
}

}  // namespace

int HostPrefixes::Learn(std::string_view word) {
  if (auto known = index_.find(word); known != index_.end()) return known->second;
  if (hosts_.size() >= kMaxHosts) return -1;
  const int host = static_cast<int>(hosts_.size());
  hosts_.emplace_back(word);
  index_.emplace(std::string(word), host);
  return host;
}

int HostPrefixes::Role(std::string_view line, std::string_view* rest, int* local_rank) {
  if (line.size() < 5 || line[0] != '[') return -1;
  size_t end = 1;
  while (end < line.size() && end < 72 && (HostChar(line[end]) || line[end] == ':')) ++end;
  if (line.substr(end, 2) != "]:") return -1;
  size_t digits = end;
  while (digits > 1 && line[digits - 1] >= '0' && line[digits - 1] <= '9') --digits;
  if (digits == end || end - digits > 6) return -1;
  const std::string_view role = line.substr(1, digits - 1);
  if (role.empty() || !((role[0] >= 'a' && role[0] <= 'z') || (role[0] >= 'A' && role[0] <= 'Z')) ||
      role == "rank" || role == "default") {
    return -1;
  }
  *local_rank = 0;
  for (size_t i = digits; i < end; ++i) *local_rank = *local_rank * 10 + (line[i] - '0');
  *rest = line.substr(end + 2);
  return Learn(role);
}

int HostPrefixes::Host(std::string_view line, std::string_view* rest) {
  size_t end = 0;
  while (end < line.size() && end < 64 && HostChar(line[end])) ++end;
  if (end == 0 || end >= line.size() || line.substr(end, 2) != ": ") return -1;
  const std::string_view word = line.substr(0, end);
  *rest = line.substr(end + 2);
  if (auto known = index_.find(word); known != index_.end()) return known->second;
  if (NotAHost(word) || !StartsTrace(*rest)) return -1;
  return Learn(word);
}

PrefixedLine HostPrefixes::Split(std::string_view line) {
  std::string_view rest;
  int local_rank = -1;
  int host = Role(line, &rest, &local_rank);
  if (host < 0) host = Host(line, &rest);
  if (host < 0) return SplitRankPrefix(line);
  PrefixedLine inner = SplitRankPrefix(rest);
  if (inner.rank < 0 && local_rank >= 0) {
    inner.rank = local_rank;
    inner.stream = local_rank;
  }
  auto [it, inserted] = streams_.emplace(std::make_pair(host, inner.stream), 0);
  if (inserted) {
    if (streams_.size() > kMaxStreams) {
      streams_.erase(it);
      return inner;  // too many streams to keep apart: the inner prefix alone decides
    }
    it->second = kHostStreamBase + static_cast<int>(streams_.size());
  }
  inner.stream = it->second;
  return inner;
}

}  // namespace smallfix
