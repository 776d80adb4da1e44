#include "engine/base/run_owner.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"

namespace smallfix {
namespace {

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (size_t at = 0;;) {
    const size_t next = text.find(separator, at);
    parts.push_back(text.substr(at, next == std::string_view::npos ? next : next - at));
    if (next == std::string_view::npos) return parts;
    at = next + 1;
  }
}

struct ProcStat {
  char state = '?';
  unsigned long long start_ticks = 0;
};

// The state and start time of `pid` from /proc/PID/stat, or nullopt when there is no such
// process. The command name (field 2) may hold spaces and parentheses: fields are counted
// after its last ')'.
std::optional<ProcStat> ReadProcStat(long pid) {
  std::ifstream in(absl::StrFormat("/proc/%d/stat", pid));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t paren = text.rfind(')');
  if (paren == std::string::npos) return std::nullopt;
  std::istringstream fields(text.substr(paren + 1));
  ProcStat stat;
  std::string field;
  fields >> stat.state;
  // Fields 4 to 21 come before the start time (field 22).
  for (int i = 4; i <= 21 && fields >> field; ++i) {
  }
  if (!(fields >> stat.start_ticks)) return std::nullopt;
  return stat;
}

// FNV-1a: a hash that is the same in every build, so that two machines agree on it.
std::string HostHash() {
  char name[256] = {};
  ::gethostname(name, sizeof(name) - 1);
  uint32_t hash = 2166136261u;
  for (const char* c = name; *c != '\0'; ++c)
    hash = (hash ^ static_cast<unsigned char>(*c)) * 16777619u;
  return absl::StrFormat("%08x", hash);
}

RunOwner MakeThisProcess() {
  RunOwner owner;
  owner.pid = ::getpid();
  if (std::optional<ProcStat> stat = ReadProcStat(owner.pid)) owner.start_ticks = stat->start_ticks;
  owner.host = HostHash();
  return owner;
}

absl::string_view ToAbsl(std::string_view text) { return {text.data(), text.size()}; }

std::optional<RunOwner> ParseTag(std::string_view tag) {
  const std::vector<std::string_view> parts = Split(tag, '.');
  RunOwner owner;
  const std::string_view digits = "0123456789";
  if (parts.size() != 3 || parts[0].empty() || parts[1].empty() ||
      parts[0].find_first_not_of(digits) != std::string_view::npos ||
      parts[1].find_first_not_of(digits) != std::string_view::npos ||
      !absl::SimpleAtoi(ToAbsl(parts[0]), &owner.pid) || owner.pid <= 0 ||
      !absl::SimpleAtoi(ToAbsl(parts[1]), &owner.start_ticks) || parts[2].size() != 8 ||
      parts[2].find_first_not_of("0123456789abcdef") != std::string_view::npos) {
    return std::nullopt;
  }
  owner.host = std::string(parts[2]);
  return owner;
}

}  // namespace

const RunOwner& ThisProcess() {
  static const RunOwner owner = MakeThisProcess();
  return owner;
}

std::string OwnerTag(const RunOwner& owner) {
  return absl::StrFormat("%d.%d.%s", owner.pid, owner.start_ticks, owner.host);
}

std::optional<RunOwner> OwnerOfName(std::string_view name) {
  const std::vector<std::string_view> parts = Split(name, '-');
  if (parts.size() < 2 || parts[0] != "smallfix") return std::nullopt;
  for (size_t i = 1; i < parts.size(); ++i) {
    if (std::optional<RunOwner> owner = ParseTag(parts[i])) return owner;
    // Only lower-case words ("run", "bench") may come between "smallfix" and the tag.
    if (parts[i].empty() ||
        parts[i].find_first_not_of("abcdefghijklmnopqrstuvwxyz") != std::string_view::npos)
      return std::nullopt;
  }
  return std::nullopt;
}

OwnerState StateOf(const RunOwner& owner) {
  if (owner.host != ThisProcess().host) return OwnerState::kElsewhere;
  const std::optional<ProcStat> stat = ReadProcStat(owner.pid);
  if (!stat || stat->state == 'Z' || stat->state == 'X' || stat->start_ticks != owner.start_ticks)
    return OwnerState::kDead;
  return OwnerState::kAlive;
}

}  // namespace smallfix
