#ifndef SMALLFIX_ENGINE_PATTERNS_LOOKUPS_FAILING_RUN_H_
#define SMALLFIX_ENGINE_PATTERNS_LOOKUPS_FAILING_RUN_H_

// What the look-ups that read the failing run's facts (engine/facts) share: the frame at the
// match's site, and the `fact` placeholder in which each says what it read, for reports.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/facts/runtime_facts.h"
#include "engine/patterns/lookups/lookup.h"

namespace smallfix {

// The facts, or why a look-up cannot read them.
absl::StatusOr<const RuntimeFacts*> FailingRun(const MatchContext& context);
// The failing run's frame at the site (the `file` and `line` placeholders), or why there is none.
absl::StatusOr<const FrameFacts*> FailingFrame(const MatchContext& context,
                                               const MatchState& state);
// `fact` after adding `sentence` to what earlier look-ups of the match said.
std::string WithFact(const MatchState& state, const std::string& sentence);
// Binds `key` to each answer in turn and `fact` to what each rests on (see BindEach).
absl::Status BindEachWithFact(const std::string& key,
                              const std::vector<std::pair<std::string, std::string>>& answers,
                              MatchState& state, std::vector<MatchState>& more,
                              std::string_view why);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_PATTERNS_LOOKUPS_FAILING_RUN_H_
