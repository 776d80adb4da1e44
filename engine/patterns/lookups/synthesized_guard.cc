// `synthesized-guard`: the conditions over the values at the site that held in the failing run
// and in no passing run at that line (engine/facts/guard_synthesis.h), best first, for a guard
// template's condition holes.
#include "absl/strings/numbers.h"
#include "engine/base/status_macros.h"
#include "engine/facts/guard_synthesis.h"
#include "engine/index/scope.h"
#include "engine/patterns/lookups/failing_run.h"
#include "engine/patterns/lookups/helpers.h"

namespace smallfix {

absl::Status SynthesizedGuard(const LookupArgs&, const MatchContext& context, MatchState& state,
                              std::vector<MatchState>& more) {
  SMALLFIX_ASSIGN_OR_RETURN(const RuntimeFacts* facts, FailingRun(context));
  GuardSite site;
  site.file = state.bindings["file"];
  if (!absl::SimpleAtoi(state.bindings["line"], &site.line)) return LookupFails("no site line");
  site.statement = state.bindings["statement"];
  const Document& document = *state.document;
  const uint32_t at = ts_node_start_byte(state.statement);
  site.bound = [&document, at](std::string_view name) { return IsNameInScope(document, at, name); };
  const std::vector<GuardCondition> found = SynthesizeGuards(*facts, site);
  if (found.empty()) {
    return LookupFails("no condition over the values at the site held in the failing run alone");
  }
  const MatchState before = state;
  for (size_t i = 0; i < found.size(); ++i) {
    MatchState& target = i == 0 ? state : more.emplace_back(before);
    target.bindings["fact"] = WithFact(before, found[i].evidence);
    target.bindings["guard"] = found[i].condition;
    target.bindings["guard_negation"] = found[i].negation;
  }
  return absl::OkStatus();
}

}  // namespace smallfix
