// `in-scope` and `not-in-scope`: whether a name is bound at the site.
#include "engine/index/scope.h"

#include "engine/base/concat.h"
#include "engine/patterns/lookups/helpers.h"

namespace smallfix {
namespace {

absl::Status CheckInScope(const LookupArgs& args, MatchState& state, bool want) {
  const std::string name = LookupArg(args, "name");
  const bool found = IsNameInScope(*state.document, ts_node_start_byte(state.statement), name);
  if (found != want)
    return LookupFails(Concat("`", name, "` is ", found ? "" : "not ", "in scope"));
  return absl::OkStatus();
}

}  // namespace
absl::Status InScope(const LookupArgs& args, const MatchContext&, MatchState& state,
                     std::vector<MatchState>&) {
  return CheckInScope(args, state, true);
}

absl::Status NotInScope(const LookupArgs& args, const MatchContext&, MatchState& state,
                        std::vector<MatchState>&) {
  return CheckInScope(args, state, false);
}

}  // namespace smallfix
