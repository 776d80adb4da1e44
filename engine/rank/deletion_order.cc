#include "engine/rank/deletion_order.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "engine/source/diff.h"

namespace smallfix {
namespace {

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool IsBlank(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

std::string_view Trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

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
  if (IsBlank(removed)) return false;  // nothing but layout removed
  if (!written.empty()) {
    return (IsBlank(written) || Trimmed(written) == "pass") &&
           WholeTokens(before, prefix, prefix + removed.size());
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
