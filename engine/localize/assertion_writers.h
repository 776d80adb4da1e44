#ifndef SMALLFIX_ENGINE_LOCALIZE_ASSERTION_WRITERS_H_
#define SMALLFIX_ENGINE_LOCALIZE_ASSERTION_WRITERS_H_

#include <string>
#include <utility>
#include <vector>

#include "engine/localize/coverage_ranking.h"
#include "engine/localize/source_facts.h"

namespace smallfix {

// The lines that write what a failing assertion reads, scored to go ahead of coverage's ties.
//
// A test that fails on its own assertion (a wrong value: the failure names only test lines)
// reads the value through attributes (`tok.eos_id`, `moe.tokens_per_expert_E`) that the code
// under test set wrong, or never set. Ochiai scores every line that only the failing test ran
// alike, and never scores a branch the failing run skipped (the `elif` that should have been
// an `if`). So: the attribute names read by the statements at `assertion_lines` (test-file
// (file, line) pairs; a called method's name is not a read), and, in every function that ran
// a line of `coverage` (score above 0), the statements that assign, augment or mutate in
// place (`.add_(`, `.append(`) an attribute of one of those names, with the header of the
// innermost `if`/`elif`/`else` that guards each or `with` that holds it (a guard template
// wraps the whole `with torch.no_grad():` block); not the constants `__init__` starts
// attributes at (`self.eos_id = None`). A write the failing run skipped, and its guard, score
// kSkippedWrite times coverage's best score: the value was never set, so the condition is
// the suspect; a write it ran, and its guard, kRunWrite times.
LineScores AssertionWriters(SourceFacts& facts,
                            const std::vector<std::pair<std::string, int>>& assertion_lines,
                            const LineScores& coverage);

inline constexpr double kSkippedWrite = 1.2;
inline constexpr double kRunWrite = 1.1;

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_ASSERTION_WRITERS_H_
