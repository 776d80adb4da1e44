#include "engine/patterns/lookups.h"

#include <algorithm>

#include "engine/base/concat.h"
#include "engine/base/edit_distance.h"
#include "engine/index/repo_index.h"
#include "engine/index/scope.h"
#include "engine/patterns/lookup_functions.h"
#include "engine/source/comma_list.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

using Args = LookupArgs;

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

absl::Status Callee(const Args& args, const MatchContext& context, MatchState& state,
                    std::vector<MatchState>&) {
  if (context.index == nullptr) return LookupFails("no repo index to resolve the callee");
  absl::StatusOr<TSNode> call = CallNode(args, state);
  if (!call.ok()) return call.status();
  std::vector<const FunctionInfo*> callees = context.index->ResolveCall(*state.document, *call);
  if (callees.empty()) {
    return LookupFails(
        Concat("cannot resolve the callee of `",
               state.document->NodeText(ts_node_child_by_field_name(*call, "function", 8)), "`"));
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

absl::Status MissingArgument(const Args& args, const MatchContext& context, MatchState& state,
                             std::vector<MatchState>&) {
  if (state.callee == nullptr)
    return LookupFails("missing-argument needs a `callee` look-up first");
  absl::StatusOr<TSNode> call = CallNode(args, state);
  if (!call.ok()) return call.status();
  const std::vector<ParamInfo> params = state.callee->CallableParams();
  const std::vector<std::string> supplied = SuppliedParameters(*state.document, *call, params);
  const std::string wanted = LookupArg(args, "name");
  const std::vector<ScopeName> scope = NamesInScope(*state.document, ts_node_start_byte(*call));
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

absl::Status NearestParameter(const Args& args, const MatchContext& context, MatchState& state,
                              std::vector<MatchState>&) {
  if (state.callee == nullptr)
    return LookupFails("nearest-parameter needs a `callee` look-up first");
  const std::string name = LookupArg(args, "name");
  const ParamInfo* best = nullptr;
  size_t best_distance = SIZE_MAX;
  // Held here: `best` points into it (CallableParams returns a copy).
  std::vector<ParamInfo> params = state.callee->CallableParams();
  if (!LookupArg(args, "call").empty()) {
    // A keyword the call already passes cannot be passed twice.
    absl::StatusOr<TSNode> call = CallNode(args, state);
    if (!call.ok()) return call.status();
    const std::vector<std::string> supplied = SuppliedParameters(*state.document, *call, params);
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

absl::Status CalleeLacksParameter(const Args& args, const MatchContext&, MatchState& state,
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
absl::Status ExternalCallee(const Args& args, const MatchContext& context, MatchState& state,
                            std::vector<MatchState>&) {
  absl::StatusOr<TSNode> call = CallNode(args, state);
  if (!call.ok()) return call.status();
  if (context.index != nullptr && !context.index->ResolveCall(*state.document, *call).empty()) {
    return LookupFails("the callee is defined in the repo");
  }
  return absl::OkStatus();
}

absl::Status CheckInScope(const Args& args, MatchState& state, bool want) {
  const std::string name = LookupArg(args, "name");
  const bool found = IsNameInScope(*state.document, ts_node_start_byte(state.statement), name);
  if (found != want)
    return LookupFails(Concat("`", name, "` is ", found ? "" : "not ", "in scope"));
  return absl::OkStatus();
}

absl::Status InScope(const Args& args, const MatchContext&, MatchState& state,
                     std::vector<MatchState>&) {
  return CheckInScope(args, state, true);
}

absl::Status NotInScope(const Args& args, const MatchContext&, MatchState& state,
                        std::vector<MatchState>&) {
  return CheckInScope(args, state, false);
}

absl::Status ApiRename(const Args& args, const MatchContext& context, MatchState& state,
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

}  // namespace

std::string LookupArg(const LookupArgs& args, const char* key) {
  auto it = args.find(key);
  return it == args.end() ? "" : it->second;
}

absl::Status LookupFails(std::string_view why) { return absl::NotFoundError(std::string(why)); }

absl::Status BindEach(const std::string& key, const std::vector<std::string>& values,
                      MatchState& state, std::vector<MatchState>& more, std::string_view why) {
  if (values.empty()) return LookupFails(why);
  for (size_t i = 1; i < values.size(); ++i) {
    more.push_back(state);
    more.back().bindings[key] = values[i];
  }
  state.bindings[key] = values.front();
  return absl::OkStatus();
}

absl::StatusOr<TSNode> CaptureNode(const LookupArgs& args, const char* key,
                                   const MatchState& state) {
  const std::string capture = LookupArg(args, key);
  auto it = state.nodes.find(capture);
  if (it == state.nodes.end())
    return LookupFails(Concat("no capture @", capture, " in this match"));
  return it->second;
}

absl::StatusOr<TSNode> CallNode(const LookupArgs& args, const MatchState& state) {
  absl::StatusOr<TSNode> node = CaptureNode(args, "call", state);
  if (!node.ok() || !IsType(*node, "call")) {
    return LookupFails(Concat("capture @", LookupArg(args, "call"), " is not a call"));
  }
  return node;
}

absl::Status BindEachPair(const std::pair<std::string, std::string>& keys,
                          const std::vector<std::pair<std::string, std::string>>& answers,
                          MatchState& state, std::vector<MatchState>& more, std::string_view why) {
  if (answers.empty()) return LookupFails(why);
  for (size_t i = 0; i < answers.size(); ++i) {
    MatchState& target = i == 0 ? state : more.emplace_back(state);
    target.bindings[keys.first] = answers[i].first;
    target.bindings[keys.second] = answers[i].second;
  }
  return absl::OkStatus();
}

const std::vector<LookupSpec>& LookupSpecs() {
  using K = LookupKind;
  static const std::vector<LookupSpec>* specs = new std::vector<LookupSpec>{
      {K::kCallee,
       "callee",
       {"call"},
       {"callee", "callee_file", "callee_params"},
       Callee,
       "resolve the function a call reaches through the repo index"},
      {K::kMissingArgument,
       "missing-argument",
       {"call", "name"},
       {"argument", "value"},
       MissingArgument,
       "a required parameter of the callee the call does not pass, and a name in scope for it"},
      {K::kNearestParameter,
       "nearest-parameter",
       {"name", "call"},
       {"parameter"},
       NearestParameter,
       "the callee's parameter nearest to a name (typo or rename); with `call`, not one the call "
       "already passes"},
      {K::kCalleeLacksParameter,
       "callee-lacks-parameter",
       {"name"},
       {},
       CalleeLacksParameter,
       "holds when the callee neither has the parameter nor takes **kwargs"},
      {K::kExternalCallee,
       "external-callee",
       {"call"},
       {},
       ExternalCallee,
       "holds when the call does not reach a def of the repo"},
      {K::kInScope, "in-scope", {"name"}, {}, InScope, "holds when the name is bound at the site"},
      {K::kNotInScope,
       "not-in-scope",
       {"name"},
       {},
       NotInScope,
       "holds when the name is not bound at the site"},
      {K::kApiRename,
       "api-rename",
       {"name", "module"},
       {"old_name", "new_name", "other_name", "other_module", "other_leaf", "api_module", "since",
        "since_package", "since_version", "removed"},
       ApiRename,
       "the API-history entry where the name is the old or the new one"},
      {K::kOneOf,
       "one-of",
       {"value", "among"},
       {"alternative"},
       OneOf,
       "each of the `|`-separated words of `among` other than `value`, one match each"},
      {K::kNearestName,
       "nearest-name",
       {"name"},
       {"nearest"},
       NearestName,
       "the names in scope of the same kind closest to `name` (a local for a local, self.b for "
       "self.a), up to 3"},
      {K::kSiblingMethod,
       "sibling-method",
       {"receiver", "method"},
       {"sibling"},
       SiblingMethod,
       "the methods of the same receiver closest to `method` (its class's defs, its other calls in "
       "the file), up to 3"},
      {K::kParameter,
       "parameter",
       {"name"},
       {"first_statement"},
       IsParameter,
       "holds when `name` is a parameter of the enclosing def; binds the node of the def's first "
       "statement"},
      {K::kFallThrough,
       "fall-through",
       {},
       {"last_statement", "return_value"},
       FallThrough,
       "holds when the enclosing def returns a value somewhere yet can run off its end; one match "
       "per value to return"},
      {K::kIntegerNeighbours,
       "integer-neighbours",
       {"value"},
       {"alternative"},
       IntegerNeighbours,
       "the integers one below and one above an integer literal (off by one), one match each"},
      {K::kNearbyLiteral,
       "nearby-literal",
       {"literal"},
       {"alternative"},
       NearbyLiteral,
       "up to 3 other literals of the captured literal's kind in the enclosing def (else the "
       "module), nearest in text first"},
      {K::kCallableName,
       "callable-name",
       {"name"},
       {},
       CallableName,
       "holds when the name at the site is a function: the file defines a def of that name, or the "
       "name is imported"},
      {K::kParameterIs,
       "parameter-is",
       {"name", "kind"},
       {},
       ParameterIs,
       "holds when `name` is a parameter of the enclosing def of `kind`: var-positional (*name), "
       "var-keyword "
       "(**name) or default-none (name=None)"},
      {K::kFallbackName,
       "fallback-name",
       {"name"},
       {"fallback"},
       FallbackName,
       "up to 3 imported or module-level names sharing a word with `name` (`default_collate` for "
       "`collate_fn`), "
       "those that say default first"},
      {K::kRepoGetter,
       "repo-getter",
       {"name"},
       {"getter"},
       RepoGetter,
       "up to 3 calls of module-level `get_..._<name>()` defs of repo modules the file imports, "
       "those whose "
       "words the enclosing def also uses first"},
      {K::kFlagName,
       "flag-name",
       {"condition"},
       {"flag", "and_operand", "or_operand"},
       FlagName,
       "the boolean parameter of the enclosing def or switch attribute of its class that the code "
       "tests most "
       "often next to the condition's names (else in the def, else in the class); the condition as "
       "an operand "
       "of and / or"},
      {K::kNearestWord,
       "nearest-word",
       {"value", "among"},
       {"alternative"},
       NearestWord,
       "the `|`-separated words of `among` within a typo of `value` (not `value` itself), nearest "
       "first, up to 3"},
      {K::kUnusedName,
       "unused-name",
       {"name"},
       {"unused"},
       UnusedName,
       "up to 2 names other than `name`, of its kind, bound in the enclosing def before the site "
       "and read nowhere "
       "in it: loop variables first, then locals, then parameters"},
      {K::kComparedLiterals,
       "compared-literals",
       {"subject", "literal"},
       {"sibling_literal"},
       ComparedLiterals,
       "up to 2 other string literals the code compares `subject` with (==, !=, in a list or "
       "tuple) in the "
       "enclosing def, else the module; most often compared first, then nearest"},
      {K::kListAccumulator,
       "list-accumulator",
       {"name"},
       {},
       ListAccumulator,
       "holds when the site is in a loop and its def sets `name` to [] or list() before the "
       "outermost loop"},
      {K::kCallRejectsKeyword,
       "call-rejects-keyword",
       {"call", "name"},
       {"callee", "callee_file", "callee_params"},
       CallRejectsKeyword,
       "holds when the index is sure of every def the call reaches and none takes the keyword (nor "
       "**kwargs)"},
      {K::kCallMissesParameter,
       "call-misses-parameter",
       {"call", "required", "pass"},
       {"argument", "value", "callee", "callee_file", "callee_params"},
       CallMissesParameter,
       "each parameter (required: yes, or no for one with a default) of the surely resolved callee "
       "that the "
       "call leaves out while the same name (or self.<name>) is in scope, to pass as `pass` says: "
       "positional "
       "(the next slot of a call with no keywords) or keyword"},
      {K::kCallExcessPositional,
       "call-excess-positional",
       {"call"},
       {"excess", "callee", "callee_file", "callee_params"},
       CallExcessPositional,
       "holds when the call passes more positional arguments than the surely resolved callee "
       "takes; binds the "
       "last (a node too), then any other whose name is no parameter's"},
      {K::kTupleReturnTargets,
       "tuple-return-targets",
       {"call", "target"},
       {"targets", "arity", "callee", "callee_file", "callee_params"},
       TupleReturnTargets,
       "holds when every return of the surely resolved callee is a tuple of one size that the "
       "assignment's "
       "target (a name not used as a tuple, or names) does not match; binds the targets that do"},
      {K::kUndefinedName,
       "undefined-name",
       {"capture"},
       {},
       UndefinedNameLookup,
       "holds when the capture is a read of a name that nothing in the module binds and that is no "
       "builtin"},
      {K::kMissingImport,
       "missing-import",
       {"at"},
       {"name", "import"},
       MissingImport,
       "one match per name the module reads but never binds that a known module or exactly one "
       "repo module "
       "defines, with its import statement; `at: imports` only at a site in the import block "
       "(every such name of "
       "the module), else only names the site reads"},
      {K::kMovedImport,
       "moved-import",
       {"names"},
       {"new_module", "kept", "import"},
       MovedImport,
       "holds when the site's from-import names a repo module that lacks all (`names: all`) or "
       "only some "
       "(`names: some`) of its names while exactly one other repo module defines the missing ones; "
       "binds that "
       "module as the file writes it (relative or absolute), and for `some` the statement without "
       "them (`kept`) "
       "and their own import (`import`)"},
      {K::kUnassignedAttribute,
       "unassigned-attribute",
       {"name"},
       {"nearest"},
       UnassignedAttribute,
       "holds when `self.x` is read in a method but neither the class nor its repo bases assign or "
       "define `x` and "
       "no module assigns `.x`; binds up to 3 attributes the class has that are nearest to it"},
      {K::kDonorEdit,
       "donor-edit",
       {},
       {"donor_site", "donor_code", "donor_line"},
       DonorEditLookup,
       "up to 3 statements of the file of the site's shape and head (callee, target) that differ "
       "from it in one "
       "place on the fault line (a near copy, or one token the copy writes as an expression) and "
       "read only names "
       "bound at the site; binds the site's smallest node around that place and the copy's text "
       "for it"},
      {K::kDonorInsert,
       "donor-insert",
       {"side"},
       {"donor_statement", "donor_line"},
       DonorInsertLookup,
       "up to 3 statements that a near copy of the site statement elsewhere in the file has next "
       "to it (`side`: "
       "before or after) where the site has none, with the copy's next statements matching the "
       "site's; read "
       "only names bound at the site"},
  };
  return *specs;
}

const LookupSpec* FindLookupSpec(std::string_view name) {
  for (const LookupSpec& spec : LookupSpecs()) {
    if (name == spec.name) return &spec;
  }
  return nullptr;
}

const LookupSpec& SpecOf(LookupKind kind) {
  for (const LookupSpec& spec : LookupSpecs()) {
    if (spec.kind == kind) return spec;
  }
  return LookupSpecs().front();  // unreachable: the table names every kind (lookups_test)
}

absl::Status RunLookup(LookupKind kind, const Args& args, const MatchContext& context,
                       MatchState& state, std::vector<MatchState>& more) {
  return SpecOf(kind).run(args, context, state, more);
}

}  // namespace smallfix
