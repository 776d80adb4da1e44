// `api-rename`: the entry of the API-history table (api_history/changes.yaml) where a name
// is the old or the new one.
#include "engine/base/concat.h"
#include "engine/patterns/lookups/helpers.h"

namespace smallfix {

absl::Status ApiRename(const LookupArgs& args, const MatchContext& context, MatchState& state,
                       std::vector<MatchState>&) {
  if (context.history == nullptr) return LookupFails("no API-history table");
  const std::string name = LookupArg(args, "name");
  std::vector<const ApiChange*> changes = context.history->Find(name, LookupArg(args, "module"));
  if (changes.empty())
    return LookupFails(Concat("the API-history table has no change of `", name, "`"));
  const ApiChange& change = *changes.front();
  state.bindings["old_name"] = change.old_name;
  state.bindings["new_name"] = change.new_name;
  state.bindings["other_name"] = change.old_name == name ? change.new_name : change.old_name;
  state.bindings["api_module"] = change.module;
  // "torch.nn.LayerNorm" -> "torch.nn" and "LayerNorm", for `from torch.nn import LayerNorm`.
  const std::string& other = state.bindings["other_name"];
  const size_t dot = other.rfind('.');
  state.bindings["other_module"] = dot == std::string::npos ? change.module : other.substr(0, dot);
  state.bindings["other_leaf"] = dot == std::string::npos ? other : other.substr(dot + 1);
  state.bindings["since"] = change.since;
  state.bindings["removed"] = change.removed;  // "" while the old name still exists
  // "torch 1.13" -> package "torch", version "1.13", for version gates.
  const size_t space = change.since.rfind(' ');
  state.bindings["since_package"] = space == std::string::npos ? "" : change.since.substr(0, space);
  state.bindings["since_version"] =
      space == std::string::npos ? change.since : change.since.substr(space + 1);
  return absl::OkStatus();
}

}  // namespace smallfix
