#include "engine/rank/rank_candidates.h"

#include <algorithm>

#include "engine/rank/heuristic_ranker.h"

namespace smallfix {

void RankCandidates(const Ranker* ranker, bool one_fix, std::vector<ScoredCandidate>& candidates) {
  const HeuristicRanker heuristic;
  (ranker != nullptr ? *ranker : heuristic).Rank(candidates);
  if (!one_fix) return;
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const ScoredCandidate& a, const ScoredCandidate& b) {
                     if (a.sites_covered != b.sites_covered)
                       return a.sites_covered > b.sites_covered;
                     return a.parts < b.parts;
                   });
}

}  // namespace smallfix
