// `real-nearest-name`: the names nearest to a missing attribute that its owner really has in the
// installed version (the capture's dir() of the module or object), for renames the API-history
// table does not list.
#include <algorithm>

#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/patterns/lookups/failing_run.h"
#include "engine/patterns/lookups/helpers.h"

namespace smallfix {
namespace {

constexpr size_t kMaxAnswers = 3;

// Dunders and private names are offered only for a name of the same sort: a public API is not
// renamed to a private one.
bool SameSort(std::string_view name, std::string_view candidate) {
  auto sort = [](std::string_view n) {
    return n.starts_with("__") ? 2 : n.starts_with("_") ? 1 : 0;
  };
  return sort(candidate) <= sort(name);
}

// " (torch 2.13.0)" for an owner in a package whose version the run recorded, else "".
std::string VersionNote(const RuntimeFacts& facts, const std::string& qualname) {
  auto it = facts.versions.find(qualname.substr(0, qualname.find('.')));
  return it == facts.versions.end() ? "" : Concat(" (", it->first, " ", it->second, ")");
}

}  // namespace

absl::Status RealNearestName(const LookupArgs& args, const MatchContext& context, MatchState& state,
                             std::vector<MatchState>& more) {
  SMALLFIX_ASSIGN_OR_RETURN(const RuntimeFacts* facts, FailingRun(context));
  if (!facts->attribute_owner) return LookupFails("the failing run recorded no attribute owner");
  const std::string name = LookupArg(args, "name");
  auto missing = facts->exception.attrs.find("name");
  if (missing != facts->exception.attrs.end() && missing->second != name) {
    return LookupFails(Concat("the failing run missed `", missing->second, "`, not `", name, "`"));
  }
  const AttributeOwnerFacts& owner = *facts->attribute_owner;
  std::vector<std::pair<size_t, std::string>> scored;
  for (const std::string& candidate : owner.names) {
    if (!SameSort(name, candidate)) continue;
    if (std::optional<size_t> closeness = NameCloseness(name, candidate)) {
      scored.emplace_back(*closeness, candidate);
    }
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<std::string, std::string>> answers;
  for (size_t i = 0; i < scored.size() && i < kMaxAnswers; ++i) {
    answers.emplace_back(scored[i].second, Concat("`", owner.qualname, "` has `", scored[i].second,
                                                  "` but no `", name, "` in the installed version",
                                                  VersionNote(*facts, owner.qualname)));
  }
  return BindEachWithFact("nearest", answers, state, more,
                          Concat("`", owner.qualname, "` has no name near `", name, "`"));
}

}  // namespace smallfix
