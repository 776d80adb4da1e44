#ifndef SMALLFIX_ENGINE_RANK_RANK_CANDIDATES_H_
#define SMALLFIX_ENGINE_RANK_RANK_CANDIDATES_H_

#include <vector>

#include "engine/rank/ranker.h"

namespace smallfix {

// The one order of a repair's candidates, best first: `ranker`'s (the heuristic when null; the
// LLM ranker mixes the model's order into it), then, when the sites are all lines of one fix,
// the one-fix order over it: every line given must change, so a candidate that edits more of
// them comes first, and of those that edit as many, the one that makes fewer independent
// choices (the same edit repeated before two unrelated edits combined). Stable.
void RankCandidates(const Ranker* ranker, bool one_fix, std::vector<ScoredCandidate>& candidates);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_RANK_RANK_CANDIDATES_H_
