#ifndef SMALLFIX_ENGINE_RANK_FACTS_ORDER_H_
#define SMALLFIX_ENGINE_RANK_FACTS_ORDER_H_

// Ranking with the failing run's facts (engine/facts): an edit of code the failing run never
// reached cannot be what made it fail, so it goes after every edit that touches that run.

#include <functional>
#include <vector>

#include "engine/facts/runtime_facts.h"
#include "engine/rank/ranker.h"

namespace smallfix {

// Whether the candidate was matched at the line of one of the failing run's frames, changes
// such a line (in that frame's file), or the code it adds there names a value in scope in one
// of them.
bool TouchesFailingRun(const Candidate& candidate, const RuntimeFacts& facts);

// Moves the candidates that touch nothing the failing run touched after all others, keeping
// the order within each part. Facts with no frame (a run where nothing failed) change nothing.
// The facts hold the stack at the exception only: code that ran and returned before it (the
// call that made the bad value) is on no frame, so a candidate for which `followed` is true
// (made where localization followed the bad value back to) is never moved.
void DemoteUntouched(const RuntimeFacts& facts, std::vector<ScoredCandidate>& candidates,
                     const std::function<bool(const Candidate&)>& followed = nullptr);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_RANK_FACTS_ORDER_H_
