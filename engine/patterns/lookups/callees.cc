// Look-ups about the def a call reaches through the repo index (`callee` first): a required
// parameter the call leaves out, the parameter nearest to a keyword, whether the callee takes
// a name, whether the call leaves the repo.
#include <algorithm>

#include "engine/base/concat.h"
#include "engine/base/edit_distance.h"
#include "engine/base/status_macros.h"
#include "engine/index/repo_index.h"
#include "engine/index/scope.h"
#include "engine/patterns/lookups/helpers.h"
#include "engine/source/comma_list.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// Parameter names the call already supplies: keywords by name, positionals by position.
std::vector<std::string> SuppliedParameters(const Document& document, TSNode call,
                                            const std::vector<ParamInfo>& params) {
  std::vector<std::string> supplied;
  TSNode arguments = ts_node_child_by_field_name(call, "arguments", 9);
  size_t positional = 0;
  for (TSNode item : ListItems(arguments)) {
    if (IsType(item, "keyword_argument")) {
      supplied.emplace_back(document.NodeText(ts_node_child_by_field_name(item, "name", 4)));
    } else if (!IsType(item, "list_splat") && !IsType(item, "dictionary_splat")) {
      // Positional arguments fill positional parameters only, never keyword-only ones.
      while (positional < params.size() &&
             params[positional].kind != Parameter::Kind::kPositionalOnly &&
             params[positional].kind != Parameter::Kind::kPositionalOrKeyword) {
        ++positional;
      }
      if (positional < params.size()) supplied.push_back(params[positional].name);
      ++positional;
    }
  }
  return supplied;
}

bool IsPassable(const ParamInfo& param) {
  return param.kind != Parameter::Kind::kVarPositional &&
         param.kind != Parameter::Kind::kVarKeyword;
}

}  // namespace

absl::Status Callee(const LookupArgs& args, const MatchContext& context, MatchState& state,
                    std::vector<MatchState>&) {
  if (context.index == nullptr) return LookupFails("no repo index to resolve the callee");
  SMALLFIX_ASSIGN_OR_RETURN(TSNode call, CallNode(args, state));
  std::vector<const FunctionInfo*> callees = context.index->ResolveCall(*state.document, call);
  if (callees.empty()) {
    return LookupFails(
        Concat("cannot resolve the callee of `",
               state.document->NodeText(ts_node_child_by_field_name(call, "function", 8)), "`"));
  }
  state.callee = callees.front();
  std::string params;
  for (const ParamInfo& param : state.callee->CallableParams()) {
    params += (params.empty() ? "" : ", ") + param.name;
  }
  state.bindings["callee"] = state.callee->qualname;
  state.bindings["callee_file"] = state.callee->file;
  state.bindings["callee_params"] = params;
  return absl::OkStatus();
}

absl::Status MissingArgument(const LookupArgs& args, const MatchContext& context, MatchState& state,
                             std::vector<MatchState>&) {
  if (state.callee == nullptr)
    return LookupFails("missing-argument needs a `callee` look-up first");
  SMALLFIX_ASSIGN_OR_RETURN(TSNode call, CallNode(args, state));
  const std::vector<ParamInfo> params = state.callee->CallableParams();
  const std::vector<std::string> supplied = SuppliedParameters(*state.document, call, params);
  const std::string wanted = LookupArg(args, "name");
  const std::vector<ScopeName> scope = NamesInScope(*state.document, ts_node_start_byte(call));
  for (const ParamInfo& param : params) {
    if (!IsPassable(param) || param.has_default) continue;
    if (std::find(supplied.begin(), supplied.end(), param.name) != supplied.end()) continue;
    if (!wanted.empty() && param.name != wanted) continue;
    // A name in scope that is the parameter, or ends with it (`dp_group` for `group`).
    const ScopeName* best = nullptr;
    for (const ScopeName& name : scope) {
      const bool exact = name.name == param.name;
      const bool suffix =
          name.name.ends_with(Concat("_", param.name)) || name.name == Concat("self.", param.name);
      if (exact) {
        best = &name;
        break;
      }
      if (suffix && best == nullptr) best = &name;
    }
    if (best == nullptr) continue;
    state.bindings["argument"] = param.name;
    state.bindings["value"] = best->name;
    return absl::OkStatus();
  }
  return LookupFails(Concat("no required parameter of ", state.callee->qualname,
                            " is missing at the call with a matching name in scope"));
}

absl::Status NearestParameter(const LookupArgs& args, const MatchContext& context,
                              MatchState& state, std::vector<MatchState>&) {
  if (state.callee == nullptr)
    return LookupFails("nearest-parameter needs a `callee` look-up first");
  const std::string name = LookupArg(args, "name");
  const ParamInfo* best = nullptr;
  size_t best_distance = SIZE_MAX;
  // Held here: `best` points into it (CallableParams returns a copy).
  std::vector<ParamInfo> params = state.callee->CallableParams();
  if (!LookupArg(args, "call").empty()) {
    // A keyword the call already passes cannot be passed twice.
    SMALLFIX_ASSIGN_OR_RETURN(TSNode call, CallNode(args, state));
    const std::vector<std::string> supplied = SuppliedParameters(*state.document, call, params);
    std::erase_if(params, [&](const ParamInfo& param) {
      return std::find(supplied.begin(), supplied.end(), param.name) != supplied.end();
    });
  }
  for (const ParamInfo& param : params) {
    if (!IsPassable(param) || param.name == name) continue;
    const size_t distance = EditDistance(name, param.name);
    if (distance < best_distance) {
      best = &param;
      best_distance = distance;
    }
  }
  // Near enough to be a typo or a rename: at most a third of the name changed, one name
  // contains the other, or they share most of their `_`-separated words
  // (mp_world_size / mp_size share "mp" and "size").
  auto words = [](std::string_view text) {
    std::vector<std::string> parts;
    for (size_t start = 0; start <= text.size();) {
      size_t end = text.find('_', start);
      if (end == std::string_view::npos) end = text.size();
      if (end > start) parts.emplace_back(text.substr(start, end - start));
      start = end + 1;
    }
    return parts;
  };
  // One word is the other with an ending (enable / enabled, param / params).
  auto same_word = [](std::string_view a, std::string_view b) {
    if (a.size() > b.size()) std::swap(a, b);
    return a == b || (a.size() >= 4 && b.starts_with(a) && b.size() - a.size() <= 2);
  };
  auto shared_words = [&](std::string_view a, std::string_view b) {
    const std::vector<std::string> wa = words(a), wb = words(b);
    size_t shared = 0;
    for (const std::string& w : wa) {
      shared +=
          std::any_of(wb.begin(), wb.end(), [&](const std::string& v) { return same_word(w, v); });
    }
    return shared >= 2 && 2 * shared >= std::min(wa.size(), wb.size()) + 1;
  };
  if (best_distance > std::max<size_t>(2, name.size() / 3)) {
    // Prefer a parameter that shares words with `name` over the nearest by letters.
    for (const ParamInfo& param : params) {
      if (IsPassable(param) && param.name != name && shared_words(name, param.name)) {
        best = &param;
        break;
      }
    }
  }
  const bool near = best != nullptr &&
                    (best_distance <= std::max<size_t>(2, name.size() / 3) ||
                     name.find(best->name) != std::string::npos ||
                     best->name.find(name) != std::string::npos || shared_words(name, best->name));
  if (!near)
    return LookupFails(Concat("no parameter of ", state.callee->qualname, " is near `", name, "`"));
  state.bindings["parameter"] = best->name;
  return absl::OkStatus();
}

absl::Status CalleeLacksParameter(const LookupArgs& args, const MatchContext&, MatchState& state,
                                  std::vector<MatchState>&) {
  if (state.callee == nullptr)
    return LookupFails("callee-lacks-parameter needs a `callee` look-up first");
  const std::string name = LookupArg(args, "name");
  for (const ParamInfo& param : state.callee->params) {
    if (param.name == name)
      return LookupFails(Concat(state.callee->qualname, " already has `", name, "`"));
    if (param.kind == Parameter::Kind::kVarKeyword) {
      return LookupFails(Concat(state.callee->qualname, " already takes **", param.name));
    }
  }
  return absl::OkStatus();
}

// Version shims are for APIs of other packages: a callee the repo itself defines is fixed in
// the repo (add the parameter, rename the keyword), not worked around.
absl::Status ExternalCallee(const LookupArgs& args, const MatchContext& context, MatchState& state,
                            std::vector<MatchState>&) {
  SMALLFIX_ASSIGN_OR_RETURN(TSNode call, CallNode(args, state));
  if (context.index != nullptr && !context.index->ResolveCall(*state.document, call).empty()) {
    return LookupFails("the callee is defined in the repo");
  }
  return absl::OkStatus();
}

}  // namespace smallfix
