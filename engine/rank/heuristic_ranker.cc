#include "engine/rank/heuristic_ranker.h"

#include <algorithm>

namespace smallfix {

double HeuristicRanker::Score(const ScoredCandidate& c) {
  // A one-line patch scores 1; each further changed line costs a little (small fixes are
  // the common case in the frameworks' histories). An edit made in each copy of copied code is
  // one edit.
  const int lines = c.lines_changed / std::max(1, c.copies);
  const double size = 1.0 / (1.0 + 0.1 * std::max(0, lines - 1));
  return c.site_score * (0.5 * c.candidate.symptom_score + 0.3 * c.candidate.prior + 0.2 * size);
}

void HeuristicRanker::Rank(std::vector<ScoredCandidate>& candidates) const {
  for (ScoredCandidate& candidate : candidates) candidate.score = Score(candidate);
  std::stable_sort(
      candidates.begin(), candidates.end(),
      [](const ScoredCandidate& a, const ScoredCandidate& b) { return a.score > b.score; });
}

}  // namespace smallfix
