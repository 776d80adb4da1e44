#ifndef SMALLFIX_ENGINE_RANK_FACTS_ORDER_H_
#define SMALLFIX_ENGINE_RANK_FACTS_ORDER_H_

// Ranking with the failing run's facts (engine/facts): an edit of code the failing run never
// reached cannot be what made it fail, so it goes after every edit that touches that run.

#include <vector>

#include "engine/facts/runtime_facts.h"
#include "engine/rank/ranker.h"

namespace smallfix {

// Whether the candidate changes a line of one of the failing run's frames (in that frame's
// file), or the code it adds there names a value in scope in one of them.
bool TouchesFailingRun(const Candidate& candidate, const RuntimeFacts& facts);

// Moves the candidates that touch nothing the failing run touched after all others, keeping
// the order within each part. Facts with no frame (a run where nothing failed) change nothing.
void DemoteUntouched(const RuntimeFacts& facts, std::vector<ScoredCandidate>& candidates);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_RANK_FACTS_ORDER_H_
