// Look-ups that check a call against its callee's signature through the repo index, with no
// failure to confirm it: a keyword the callee does not take, a parameter the call leaves
// out, a positional argument too many, a tuple the call's result is not unpacked into. Only
// calls the index resolves with certainty take part, so a disagreement is real evidence.
#include <algorithm>

#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/index/call_binding.h"
#include "engine/index/function_exits.h"
#include "engine/index/repo_index.h"
#include "engine/index/scope.h"
#include "engine/index/tree_walk.h"
#include "engine/patterns/lookups/helpers.h"
#include "engine/source/comma_list.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

using Kind = Parameter::Kind;

// A def the call reaches, with the parameters the call itself fills.
struct Reached {
  const FunctionInfo* function;
  std::vector<ParamInfo> params;
};

// Decorators that keep the def's signature as callers see it; any other one may change it
// (a wrapper with *args, a CLI option that injects a parameter), so the check stays out.
bool KeepsSignature(std::string_view decorator) {
  decorator = decorator.substr(0, decorator.find('('));
  const size_t dot = decorator.rfind('.');
  if (dot != std::string_view::npos) decorator.remove_prefix(dot + 1);
  static constexpr std::string_view kKeeping[] = {
      "staticmethod",  "classmethod", "abstractmethod", "no_grad",        "inference_mode",
      "enable_grad",   "lru_cache",   "cache",          "override",       "final",
      "unused",        "ignore",      "export",         "contextmanager", "asynccontextmanager",
      "rank_zero_only"};
  return std::find(std::begin(kKeeping), std::end(kKeeping), decorator) != std::end(kKeeping);
}

// Every def the call may reach, when the index is sure of them: a def by name, a class's
// __init__, a method of self (and its overrides in subclasses), of super() or of a class.
// Fails for guesses by method name, properties and defs with a decorator that may change
// the signature.
absl::StatusOr<std::vector<Reached>> SureCallees(const MatchContext& context,
                                                 const Document& document, TSNode call) {
  if (context.index == nullptr) return LookupFails("no repo index to resolve the callee");
  const CallTarget target = context.index->ResolveCallTarget(document, call);
  const std::string called(document.NodeText(Field(call, "function")));
  if (!target.certain || target.via == CallTarget::Via::kGuess) {
    return LookupFails(Concat("the index is not sure what `", called, "` reaches"));
  }
  // The name the call starts from must be the module's (a def, a class, an import), not a
  // parameter or local that shadows it: `def run(loss_fn): loss_fn(x)`.
  TSNode head = Field(call, "function");
  while (IsType(head, "attribute")) head = Field(head, "object");
  if (IsType(head, "identifier") && target.via != CallTarget::Via::kBoundMethod &&
      target.via != CallTarget::Via::kSuper) {
    const std::string_view name = document.NodeText(head);
    for (const ScopeName& entry : NamesInScope(document, ts_node_start_byte(call))) {
      if (entry.name != name) continue;
      const bool nested =
          !target.functions.empty() &&
          (target.functions.front()->qualname.find("<locals>") != std::string::npos);
      if (entry.kind == ScopeName::Kind::kParameter ||
          entry.kind == ScopeName::Kind::kLoopVariable ||
          (entry.kind == ScopeName::Kind::kLocal && !nested)) {
        return LookupFails(
            Concat("`", name, "` is a parameter or local here, not what the index resolved"));
      }
      break;
    }
  }
  std::vector<const FunctionInfo*> functions;
  for (const FunctionInfo* function : target.functions) {
    if (function->IsShadowed()) continue;
    functions.push_back(function);
    if (target.via != CallTarget::Via::kBoundMethod) continue;
    for (const FunctionInfo* override : context.index->Overrides(*function)) {
      if (std::find(functions.begin(), functions.end(), override) == functions.end()) {
        functions.push_back(override);
      }
    }
  }
  if (functions.empty()) return LookupFails(Concat("`", called, "` reaches no def of the repo"));
  std::vector<Reached> reached;
  for (const FunctionInfo* function : functions) {
    if (function->is_property) return LookupFails(Concat(function->qualname, " is a property"));
    for (const std::string& decorator : function->decorators) {
      if (!KeepsSignature(decorator)) {
        return LookupFails(
            Concat(function->qualname, "'s decorator @", decorator, " may change its signature"));
      }
    }
    // Cls.m(obj, ...) passes self itself; a classmethod still gets cls from Python.
    const bool unbound = target.via == CallTarget::Via::kClassAttribute && function->is_method &&
                         !function->is_classmethod && !function->is_staticmethod;
    reached.push_back({function, unbound ? function->params : function->CallableParams()});
  }
  return reached;
}

void BindCallee(const FunctionInfo& callee, MatchState& state) {
  state.callee = &callee;
  std::string params;
  for (const ParamInfo& param : callee.CallableParams())
    params += (params.empty() ? "" : ", ") + param.name;
  state.bindings["callee"] = callee.qualname;
  state.bindings["callee_file"] = callee.file;
  state.bindings["callee_params"] = params;
}

bool Contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The methods the class around `node` defines: self.<method> is in scope but is no value.
std::vector<std::string> MethodsAround(const Document& document, TSNode node) {
  std::vector<std::string> methods;
  std::optional<TSNode> def = EnclosingOfType(node, {"function_definition"});
  const TSNode cls = def ? ClassOfMethod(*def) : TSNode{};
  if (ts_node_is_null(cls)) return methods;
  ForEachNamedChild(Field(cls, "body"), [&](TSNode statement) {
    const TSNode function =
        IsType(statement, "decorated_definition") ? Field(statement, "definition") : statement;
    if (IsType(function, "function_definition"))
      methods.emplace_back(document.NodeText(Field(function, "name")));
  });
  return methods;
}

// The names in scope at the call that can stand for parameter `name`: the same local,
// parameter or loop variable, else self.<name> when the class assigns it (not a method of
// it). Not a global, an import or a builtin: a module-level `config` or the builtin `input`
// is no evidence.
std::vector<std::string> ValuesFor(const std::vector<ScopeName>& scope,
                                   const std::vector<std::string>& methods,
                                   const std::string& name) {
  std::vector<std::string> exact, attribute;
  const bool is_method = std::find(methods.begin(), methods.end(), name) != methods.end();
  for (const ScopeName& entry : scope) {
    if (entry.name == name &&
        (entry.kind == ScopeName::Kind::kParameter || entry.kind == ScopeName::Kind::kLocal ||
         entry.kind == ScopeName::Kind::kLoopVariable)) {
      exact.push_back(entry.name);
    } else if (entry.kind == ScopeName::Kind::kAttribute && !is_method &&
               entry.name.ends_with(Concat(".", name)) &&
               entry.name.find('.') == entry.name.size() - name.size() - 1) {
      attribute.push_back(entry.name);
    }
  }
  exact.insert(exact.end(), attribute.begin(), attribute.end());
  return exact;
}

}  // namespace

absl::Status CallRejectsKeyword(const LookupArgs& args, const MatchContext& context,
                                MatchState& state, std::vector<MatchState>&) {
  SMALLFIX_ASSIGN_OR_RETURN(TSNode call, CallNode(args, state));
  SMALLFIX_ASSIGN_OR_RETURN(std::vector<Reached> reached,
                            SureCallees(context, *state.document, call));
  const std::string keyword = LookupArg(args, "name");
  for (const Reached& callee : reached) {
    const CallBinding binding = BindCall(*state.document, call, callee.params);
    if (!Contains(binding.unknown_keywords, keyword)) {
      return LookupFails(Concat(callee.function->qualname, " takes `", keyword, "`"));
    }
  }
  BindCallee(*reached.front().function, state);
  return absl::OkStatus();
}

absl::Status CallMissesParameter(const LookupArgs& args, const MatchContext& context,
                                 MatchState& state, std::vector<MatchState>& more) {
  SMALLFIX_ASSIGN_OR_RETURN(TSNode call, CallNode(args, state));
  SMALLFIX_ASSIGN_OR_RETURN(std::vector<Reached> reached,
                            SureCallees(context, *state.document, call));
  const bool required = LookupArg(args, "required") != "no";
  const bool positional = LookupArg(args, "pass") == "positional";
  const Document& document = *state.document;
  std::vector<CallBinding> bindings;
  for (const Reached& callee : reached) {
    bindings.push_back(BindCall(document, call, callee.params));
    const CallBinding& binding = bindings.back();
    // A splat may fill anything; a call already wrong otherwise is another template's.
    if (binding.has_list_splat || binding.has_dict_splat)
      return LookupFails("the call passes *args or **kwargs");
    if (!binding.unknown_keywords.empty() || !binding.excess_positionals.empty() ||
        !binding.repeated.empty()) {
      return LookupFails("the call disagrees with the callee otherwise");
    }
  }
  std::string passed;
  for (TSNode item : ListItems(Field(call, "arguments")))
    passed += Concat("\n", document.NodeText(item), "\n");
  const std::vector<ScopeName> scope = NamesInScope(document, ts_node_start_byte(call));
  const std::vector<std::string> methods = MethodsAround(document, call);
  const std::vector<ParamInfo>& params = reached.front().params;
  size_t slot = 0;  // the parameter's place among the positional ones
  std::vector<std::pair<std::string, std::string>> answers;  // parameter, value
  std::vector<std::pair<std::string, std::string>> by_attribute;
  for (const ParamInfo& param : params) {
    const bool takes_position =
        param.kind == Kind::kPositionalOnly || param.kind == Kind::kPositionalOrKeyword;
    const size_t here = takes_position ? slot++ : SIZE_MAX;
    if (param.kind == Kind::kVarPositional || param.kind == Kind::kVarKeyword) continue;
    if (param.has_default == required) continue;
    bool unfilled = true;
    for (size_t i = 0; i < bindings.size(); ++i) {
      const bool has = std::any_of((reached)[i].params.begin(), (reached)[i].params.end(),
                                   [&](const ParamInfo& p) { return p.name == param.name; });
      unfilled &= has && !bindings[i].Fills(param.name);
    }
    if (!unfilled) continue;
    // Positionally only into the next free slot of a call that passes no keyword.
    const bool as_positional =
        here == bindings.front().positionals.size() && bindings.front().keywords.empty();
    if (as_positional != positional || (!positional && param.kind == Kind::kPositionalOnly))
      continue;
    for (const std::string& value : ValuesFor(scope, methods, param.name)) {
      if (passed.find(Concat("\n", value, "\n")) != std::string::npos)
        continue;  // passed already, elsewhere
      (value.find('.') == std::string::npos ? answers : by_attribute)
          .emplace_back(param.name, value);
      break;
    }
  }
  answers.insert(answers.end(), by_attribute.begin(), by_attribute.end());
  if (answers.empty()) {
    return LookupFails(Concat("no ", required ? "required" : "optional", " parameter of ",
                              reached.front().function->qualname,
                              " is left out with its name in scope"));
  }
  BindCallee(*reached.front().function, state);
  return BindEachPair({"argument", "value"}, answers, state, more, "");
}

absl::Status CallExcessPositional(const LookupArgs& args, const MatchContext& context,
                                  MatchState& state, std::vector<MatchState>& more) {
  SMALLFIX_ASSIGN_OR_RETURN(TSNode call, CallNode(args, state));
  SMALLFIX_ASSIGN_OR_RETURN(std::vector<Reached> reached,
                            SureCallees(context, *state.document, call));
  const Document& document = *state.document;
  std::vector<std::string> names;  // every parameter name of every def reached
  CallBinding binding;
  for (const Reached& callee : reached) {
    binding = BindCall(document, call, callee.params);
    if (binding.has_list_splat) return LookupFails("the call passes *args");
    if (binding.excess_positionals.empty()) {
      return LookupFails(
          Concat(callee.function->qualname, " takes every positional argument the call passes"));
    }
    for (const ParamInfo& param : callee.params) names.push_back(param.name);
  }
  // The last positional, then any other whose name is no parameter's (`f(x, trainer)` for
  // `def f(x)`), when the others' names are.
  std::vector<TSNode> drop = {binding.positionals.back()};
  for (TSNode argument : binding.positionals) {
    if (ts_node_eq(argument, drop.front()) || !IsType(argument, "identifier")) continue;
    if (!Contains(names, document.NodeText(argument))) drop.push_back(argument);
  }
  for (size_t i = 1; i < drop.size() && i < 3; ++i) {
    more.push_back(state);
    more.back().nodes["excess"] = drop[i];
    more.back().bindings["excess"] = std::string(document.NodeText(drop[i]));
  }
  BindCallee(*reached.front().function, state);
  for (MatchState& other : more) BindCallee(*reached.front().function, other);
  state.nodes["excess"] = drop.front();
  state.bindings["excess"] = std::string(document.NodeText(drop.front()));
  return absl::OkStatus();
}

namespace {

// The number of values every return of `def` gives as a tuple (`return a, b`), or 0 when
// one does not, it yields, or it can run off its end (None).
size_t TupleArity(const Document& document, TSNode def) {
  if (!ts_node_is_null(FallThroughStatement(document, def))) return 0;
  bool yields = false;
  WalkTree(Field(def, "body"), [&](TSNode node) {
    if (IsType(node, "function_definition") || IsType(node, "lambda") ||
        IsType(node, "class_definition")) {
      return Walk::kSkip;
    }
    yields |= IsType(node, "yield");
    return yields ? Walk::kStop : Walk::kDescend;
  });
  if (yields) return 0;
  size_t arity = 0;
  for (TSNode statement : ReturnStatements(def)) {
    const std::vector<TSNode> values = NamedChildrenSkippingComments(statement);
    if (values.size() != 1) return 0;
    if (!IsType(values[0], "expression_list") && !IsType(values[0], "tuple")) return 0;
    const std::vector<TSNode> items = NamedChildrenSkippingComments(values[0]);
    for (TSNode item : items) {
      if (IsType(item, "list_splat")) return 0;
    }
    if (items.size() < 2 || (arity != 0 && items.size() != arity)) return 0;
    arity = items.size();
  }
  return arity;
}

TSNode DefAtLine(const Document& document, const FunctionInfo& function) {
  TSNode found{};
  WalkTree(document.root(), [&](TSNode node) {
    if (IsType(node, "function_definition") &&
        static_cast<int>(document.NodeStart(node).line) + 1 == function.line &&
        document.NodeText(Field(node, "name")) == function.name) {
      found = node;
      return Walk::kStop;
    }
    return Walk::kDescend;
  });
  return found;
}

// How `name` is read after `after` in `scope`: as a tuple (indexed, unpacked, starred,
// iterated, measured, returned) and as one object (an attribute read other than a tuple's
// count or index, or a call). Passing it on says neither.
struct Uses {
  bool as_tuple = false;
  bool as_object = false;
};
Uses UsesOf(const Document& document, TSNode scope, std::string_view name, size_t after) {
  Uses uses;
  bool& tuple = uses.as_tuple;
  WalkTree(scope, [&](TSNode node) {
    if (ts_node_end_byte(node) <= after) return Walk::kSkip;
    if (!IsType(node, "identifier") || ts_node_start_byte(node) < after ||
        document.NodeText(node) != name) {
      return Walk::kDescend;
    }
    const TSNode parent = ts_node_parent(node);
    if (IsType(parent, "attribute") && ts_node_eq(Field(parent, "object"), node)) {
      const std::string_view attribute = document.NodeText(Field(parent, "attribute"));
      uses.as_object |= attribute != "count" && attribute != "index";
    }
    if (IsType(parent, "call") && ts_node_eq(Field(parent, "function"), node))
      uses.as_object = true;
    // Returned as it is, alone or in a tuple, list or dict: passed on, maybe as the tuple.
    TSNode up = parent;
    while (IsType(up, "expression_list") || IsType(up, "tuple") || IsType(up, "list") ||
           IsType(up, "parenthesized_expression") || IsType(up, "pair") ||
           IsType(up, "dictionary")) {
      up = ts_node_parent(up);
    }
    tuple |= IsType(up, "return_statement");
    if (IsType(parent, "subscript") && ts_node_eq(Field(parent, "value"), node)) tuple = true;
    if (IsType(parent, "list_splat") || IsType(parent, "for_statement") ||
        IsType(parent, "for_in_clause")) {
      tuple = true;
    }
    if (IsType(parent, "assignment") && ts_node_eq(Field(parent, "right"), node) &&
        !IsType(Field(parent, "left"), "identifier")) {
      tuple = true;
    }
    if (IsType(parent, "argument_list")) {
      const std::string_view callee = document.NodeText(Field(ts_node_parent(parent), "function"));
      tuple |= callee == "len" || callee == "tuple" || callee == "list" || callee == "zip";
    }
    return tuple ? Walk::kStop : Walk::kDescend;
  });
  return uses;
}

}  // namespace

absl::Status TupleReturnTargets(const LookupArgs& args, const MatchContext& context,
                                MatchState& state, std::vector<MatchState>&) {
  SMALLFIX_ASSIGN_OR_RETURN(TSNode call, CallNode(args, state));
  const std::string target_name = LookupArg(args, "target");
  auto target_it = state.nodes.find(target_name);
  if (target_it == state.nodes.end()) return LookupFails(Concat("no capture @", target_name));
  const TSNode target = target_it->second;
  if (!context.load) return LookupFails("cannot read the callee's file");
  SMALLFIX_ASSIGN_OR_RETURN(std::vector<Reached> reached,
                            SureCallees(context, *state.document, call));
  size_t arity = 0;
  for (const Reached& callee : reached) {
    absl::StatusOr<Document> file = context.load(callee.function->file);
    if (!file.ok()) return LookupFails(Concat("cannot read ", callee.function->file));
    const TSNode def = DefAtLine(*file, *callee.function);
    const size_t n = ts_node_is_null(def) ? 0 : TupleArity(*file, def);
    if (n == 0 || (arity != 0 && n != arity)) {
      return LookupFails(
          Concat(callee.function->qualname, " does not always return a tuple of one size"));
    }
    arity = n;
  }
  const Document& document = *state.document;
  std::vector<std::string> names;
  if (IsType(target, "identifier")) {
    std::optional<TSNode> scope = EnclosingOfType(target, {"function_definition"});
    const Uses uses = UsesOf(document, scope ? *scope : document.root(), document.NodeText(target),
                             ts_node_end_byte(state.statement));
    if (uses.as_tuple || !uses.as_object) {
      return LookupFails(
          Concat("`", document.NodeText(target), "` is ",
                 uses.as_tuple ? "read as a tuple later" : "never read as one object later"));
    }
    names.emplace_back(document.NodeText(target));
  } else if (IsType(target, "pattern_list") || IsType(target, "tuple_pattern")) {
    for (TSNode item : NamedChildrenSkippingComments(target)) {
      if (IsType(item, "list_splat_pattern"))
        return LookupFails("a starred target takes any count");
      names.emplace_back(document.NodeText(item));
    }
  } else {
    return LookupFails("the target is not a name or a list of names");
  }
  if (names.size() == arity) return LookupFails("the targets already match the returned tuple");
  // Too many: drop `_` targets, the last first. Too few: more `_` at the end.
  for (size_t i = names.size(); i-- > 0 && names.size() > arity;) {
    if (names[i] == "_") names.erase(names.begin() + static_cast<std::ptrdiff_t>(i));
  }
  if (names.size() > arity)
    return LookupFails("more targets than values, and not enough of them are `_`");
  while (names.size() < arity) names.emplace_back("_");
  std::string joined;
  for (const std::string& name : names) joined += (joined.empty() ? "" : ", ") + name;
  BindCallee(*reached.front().function, state);
  state.bindings["targets"] = joined;
  state.bindings["arity"] = std::to_string(arity);
  return absl::OkStatus();
}

}  // namespace smallfix
