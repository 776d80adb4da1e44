// `synthesized-guard`: the conditions over the values at the site that held in the failing run
// and in no passing run at that line (engine/facts/guard_synthesis.h), best first, for a guard
// template's condition holes.
#include <cctype>

#include "absl/strings/numbers.h"
#include "engine/base/status_macros.h"
#include "engine/facts/guard_synthesis.h"
#include "engine/index/scope.h"
#include "engine/patterns/lookups/failing_run.h"
#include "engine/patterns/lookups/helpers.h"

namespace smallfix {
namespace {

// The name a guard's subject starts from (`num_devices` of `num_devices`, `cfg` of
// `cfg.rope.factor`), or "" when it starts from no name or from `self` / `cls`: an attribute
// of the object may change between the def's entry and the site, a parameter's value does not
// (short of being rebound) so a guard over one may stand at the entry.
std::string RootParameterName(std::string_view subject) {
  size_t end = 0;
  while (end < subject.size() &&
         (std::isalnum(static_cast<unsigned char>(subject[end])) || subject[end] == '_')) {
    ++end;
  }
  const std::string_view root = subject.substr(0, end);
  if (root.empty() || std::isdigit(static_cast<unsigned char>(root.front())) || root == "self" ||
      root == "cls") {
    return "";
  }
  return std::string(root);
}

}  // namespace

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
    target.bindings["guard_root"] = RootParameterName(found[i].subject);
  }
  return absl::OkStatus();
}

}  // namespace smallfix
