#include "engine/rank/facts_order.h"

#include <algorithm>

#include "engine/facts/guard_synthesis.h"

namespace smallfix {
namespace {

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// The changed region of one file: the 1-based lines of `before` it replaces (an insertion
// replaces none and counts the line it goes before) and the text it puts there.
struct Region {
  int first = 0, last = 0;
  std::string added;
};

Region ChangedRegion(std::string_view before, std::string_view after) {
  const std::vector<std::string_view> a = Lines(before), b = Lines(after);
  size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) {
    ++suffix;
  }
  Region region;
  region.first = static_cast<int>(prefix) + 1;
  region.last = std::max(region.first, static_cast<int>(a.size() - suffix));
  for (size_t i = prefix; i < b.size() - suffix; ++i) {
    region.added += std::string(b[i]) + "\n";
  }
  return region;
}

bool Touches(const FileChange& change, const FrameFacts& frame) {
  if (change.file != frame.file) return false;
  const Region region = ChangedRegion(change.before, change.after);
  if (frame.line >= region.first && frame.line <= region.last) return true;
  for (const auto& [name, value] : frame.locals) {
    if (FindExpression(region.added, name) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

bool TouchesFailingRun(const Candidate& candidate, const RuntimeFacts& facts) {
  for (const FrameFacts& frame : facts.frames) {
    // Matched at a line the run was on: its edit may go elsewhere (the assignment of the
    // attribute the line reads, the callee's signature), where the run had been before.
    if (candidate.file == frame.file && candidate.line == frame.line) return true;
    for (const FileChange& change : candidate.changes) {
      if (Touches(change, frame)) return true;
    }
  }
  return false;
}

void DemoteUntouched(const RuntimeFacts& facts, std::vector<ScoredCandidate>& candidates,
                     const std::function<bool(const Candidate&)>& followed) {
  if (facts.frames.empty()) return;
  std::stable_partition(candidates.begin(), candidates.end(), [&](const ScoredCandidate& c) {
    return (followed && followed(c.candidate)) || TouchesFailingRun(c.candidate, facts);
  });
}

}  // namespace smallfix
