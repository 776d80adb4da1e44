#ifndef SMALLFIX_ENGINE_RANK_HEURISTIC_RANKER_H_
#define SMALLFIX_ENGINE_RANK_HEURISTIC_RANKER_H_

#include "engine/rank/ranker.h"

namespace smallfix {

// score = site score x (how well the template's symptom matched, how common its strategy
// is, how small the patch is), weighted 0.5 / 0.3 / 0.2. Ties keep generation order.
class HeuristicRanker : public Ranker {
 public:
  void Rank(std::vector<ScoredCandidate>& candidates) const override;
  static double Score(const ScoredCandidate& candidate);
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_RANK_HEURISTIC_RANKER_H_
