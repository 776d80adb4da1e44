#include "engine/rank/deletion_order.h"

#include <algorithm>
#include <string_view>

#include "engine/base/text.h"
#include "engine/source/diff.h"

namespace smallfix {
namespace {

// Whether `before[start, end)` is a run of whole tokens: it does not start or end inside a
// word of the text around it.
bool WholeTokens(std::string_view before, size_t start, size_t end) {
  if (start > 0 && IsWordChar(before[start - 1]) && IsWordChar(before[start])) return false;
  if (end < before.size() && IsWordChar(before[end - 1]) && IsWordChar(before[end])) return false;
  return true;
}

bool OnlyDeletes(std::string_view before, std::string_view after) {
  const auto [prefix, suffix] = CommonEnds(
      before.size(), after.size(), [&](size_t i, size_t j) { return before[i] == after[j]; });
  const std::string_view removed = before.substr(prefix, before.size() - prefix - suffix);
  const std::string_view written = after.substr(prefix, after.size() - prefix - suffix);
  if (StripSpace(removed).empty()) return false;  // nothing but layout removed
  if (!written.empty()) {
    const std::string_view kept = StripSpace(written);
    return (kept.empty() || kept == "pass") && WholeTokens(before, prefix, prefix + removed.size());
  }
  // A pure removal may sit at several places: `f(bar, baz)` to `f(baz)` removes `bar, ` or,
  // as the longest common prefix has it, `r, ba`. Any start from the longest common prefix
  // back to where the common suffix (not cut short by the prefix) ends will do.
  size_t tail = 0;
  while (tail < after.size() && before[before.size() - 1 - tail] == after[after.size() - 1 - tail])
    ++tail;
  const size_t lowest = after.size() - tail;
  for (size_t start = prefix + 1; start-- > lowest;) {
    if (WholeTokens(before, start, start + removed.size())) return true;
  }
  return false;
}

}  // namespace

bool OnlyDeletesCode(const Candidate& candidate) {
  if (candidate.changes.empty()) return false;
  return std::all_of(
      candidate.changes.begin(), candidate.changes.end(),
      [](const FileChange& change) { return OnlyDeletes(change.before, change.after); });
}

void DemoteDeletions(std::vector<ScoredCandidate>& candidates) {
  std::stable_partition(candidates.begin(), candidates.end(), [](const ScoredCandidate& c) {
    return c.candidate.symptom_score > 0 || !OnlyDeletesCode(c.candidate);
  });
}

}  // namespace smallfix
