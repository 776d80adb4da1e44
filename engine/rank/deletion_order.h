#ifndef SMALLFIX_ENGINE_RANK_DELETION_ORDER_H_
#define SMALLFIX_ENGINE_RANK_DELETION_ORDER_H_

// The validation order's one rule about what an edit does: a candidate that only deletes code
// is validated after every candidate that writes some. Deleting a statement, a condition's
// operand or an argument passes any test that does not check what was deleted, and tests of
// a small fix rarely check the rest of the function: most plausible patches of test-driven
// repair tools are deletions that are not the fix (Qi et al., "An Analysis of Patch
// Plausibility and Correctness for Generate-and-Validate Patch Generation Systems", ISSTA
// 2015). Here too: realfix dev counts 0 of 240 statement removals and 3 of 237 dropped
// arguments as the fix, and removals were the first plausible patch of 2 of 11 realbugs dev
// bugs with one. A deletion the failure itself asks for (a keyword the callee rejects, named
// in the TypeError) keeps its place.

#include <vector>

#include "engine/rank/ranker.h"

namespace smallfix {

// Whether every change of the candidate removes one run of whole tokens and writes nothing in
// its place (or only `pass`, which a removal leaves in a block it empties). `elif` to `if`
// removes letters of a token, not a token: it writes a different statement.
bool OnlyDeletesCode(const Candidate& candidate);

// Moves the candidates that only delete code, and whose symptom did not ask for it (symptom
// score 0), after all the others, keeping the order within each part.
void DemoteDeletions(std::vector<ScoredCandidate>& candidates);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_RANK_DELETION_ORDER_H_
