// Look-ups about the def enclosing the site: its parameters, and whether it can run off its
// end while other paths return a value.
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/index/call_binding.h"
#include "engine/index/function_exits.h"
#include "engine/index/scope.h"
#include "engine/patterns/lookups/helpers.h"
#include "engine/source/signature_edits.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

constexpr size_t kMaxReturnValues = 3;

std::optional<TSNode> EnclosingDef(const MatchState& state) {
  return EnclosingOfType(state.statement, {"function_definition"});
}

bool IsDocstring(TSNode statement) {
  return IsType(statement, "expression_statement") && ts_node_named_child_count(statement) == 1 &&
         IsType(ts_node_named_child(statement, 0), "string");
}

}  // namespace

absl::Status IsParameter(const LookupArgs& args, const MatchContext&, MatchState& state,
                         std::vector<MatchState>&) {
  const std::string name = LookupArg(args, "name");
  const Document& document = *state.document;
  std::optional<TSNode> def = EnclosingDef(state);
  if (!def) return LookupFails("the site is not in a def");
  bool found = false;
  for (const Parameter& parameter : Parameters(document, *def)) found |= parameter.name == name;
  if (!found) return LookupFails(Concat("`", name, "` is not a parameter of the enclosing def"));
  std::vector<TSNode> body =
      NamedChildrenSkippingComments(ts_node_child_by_field_name(*def, "body", 4));
  if (!body.empty() && IsDocstring(body.front())) body.erase(body.begin());
  if (body.empty()) return LookupFails("the def has no statement after its docstring");
  state.nodes["first_statement"] = body.front();
  state.bindings["first_statement"] = std::string(document.NodeText(body.front()));
  return absl::OkStatus();
}

absl::Status FallThrough(const LookupArgs&, const MatchContext&, MatchState& state,
                         std::vector<MatchState>& more) {
  const Document& document = *state.document;
  std::optional<TSNode> def = EnclosingDef(state);
  if (!def) return LookupFails("the site is not in a def");
  const TSNode last = FallThroughStatement(document, *def);
  if (ts_node_is_null(last)) return LookupFails("the def cannot run off its end");
  // A value of the kind the other returns give: the same name, or the other truth value.
  std::vector<std::string> values;
  std::set<std::string, std::less<>> seen;
  for (TSNode statement : ReturnStatements(*def)) {
    if (ts_node_named_child_count(statement) == 0) continue;
    const TSNode value = ts_node_named_child(statement, 0);
    std::string text(document.NodeText(value));
    if (text == "None") continue;
    if (text == "True")
      text = "False";
    else if (text == "False")
      text = "True";
    else if (!IsType(value, "identifier") && !IsType(value, "attribute"))
      continue;
    if (seen.insert(text).second && values.size() < kMaxReturnValues) values.push_back(text);
  }
  state.nodes["last_statement"] = last;
  state.bindings["last_statement"] = std::string(document.NodeText(last));
  return BindEach("return_value", values, state, more,
                  "no other return gives a name or a truth value");
}

namespace {

// What an early return gives for a def annotated to return `annotation`: the empty value of a
// container, text or number type, None where None is allowed, and nothing (a bare `return`)
// for `-> None` or a type with no empty value to name.
std::string EarlyReturnFor(std::string_view annotation) {
  std::string text(annotation);
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') &&
      text.back() == text.front())
    text = text.substr(1, text.size() - 2);  // a forward reference, `-> "List[int]"`
  if (text == "None") return "return";
  const bool optional =
      text.rfind("Optional[", 0) == 0 || text.rfind("typing.Optional[", 0) == 0 ||
      text.find("| None") != std::string::npos || text.rfind("None |", 0) == 0 ||
      (text.find("Union[") != std::string::npos && text.find("None") != std::string::npos);
  if (optional) return "return None";
  std::string head = text.substr(0, text.find('['));
  if (const size_t dot = head.rfind('.'); dot != std::string::npos) head = head.substr(dot + 1);
  static const auto* const kEmpty = new std::map<std::string, std::string, std::less<>>{
      {"list", "[]"},           {"List", "[]"},
      {"Sequence", "[]"},       {"MutableSequence", "[]"},
      {"Iterable", "[]"},       {"Collection", "[]"},
      {"dict", "{}"},           {"Dict", "{}"},
      {"Mapping", "{}"},        {"MutableMapping", "{}"},
      {"tuple", "()"},          {"Tuple", "()"},
      {"set", "set()"},         {"Set", "set()"},
      {"AbstractSet", "set()"}, {"MutableSet", "set()"},
      {"str", "\"\""},          {"int", "0"},
      {"float", "0.0"},         {"bool", "False"}};
  auto it = kEmpty->find(head);
  return it == kEmpty->end() ? "return" : Concat("return ", it->second);
}

}  // namespace

absl::Status EarlyReturn(const LookupArgs&, const MatchContext&, MatchState& state,
                         std::vector<MatchState>&) {
  std::optional<TSNode> def = EnclosingDef(state);
  if (!def) return LookupFails("the site is not in a def");
  const TSNode annotation = ts_node_child_by_field_name(*def, "return_type", 11);
  state.bindings["early_return"] =
      ts_node_is_null(annotation) ? "return" : EarlyReturnFor(state.document->NodeText(annotation));
  return absl::OkStatus();
}

absl::Status ParameterIs(const LookupArgs& args, const MatchContext&, MatchState& state,
                         std::vector<MatchState>&) {
  const std::string name = LookupArg(args, "name");
  const std::string kind = LookupArg(args, "kind");
  const Document& document = *state.document;
  std::optional<TSNode> def = EnclosingDef(state);
  if (!def) return LookupFails("the site is not in a def");
  for (const Parameter& parameter : Parameters(document, *def)) {
    if (parameter.name != name) continue;
    bool holds = false;
    if (kind == "var-positional") {
      holds = parameter.kind == Parameter::Kind::kVarPositional;
    } else if (kind == "var-keyword") {
      holds = parameter.kind == Parameter::Kind::kVarKeyword;
    } else if (kind == "named") {
      holds = parameter.kind != Parameter::Kind::kVarPositional &&
              parameter.kind != Parameter::Kind::kVarKeyword;
    } else if (kind == "default-none") {
      const TSNode value = ts_node_child_by_field_name(parameter.node, "value", 5);
      holds =
          parameter.has_default && !ts_node_is_null(value) && document.NodeText(value) == "None";
    } else {
      return LookupFails(Concat("parameter-is: unknown kind `", kind, "`"));
    }
    if (holds) return absl::OkStatus();
    return LookupFails(Concat("parameter `", name, "` is not ", kind));
  }
  return LookupFails(Concat("`", name, "` is not a parameter of the enclosing def"));
}

// A name the code tests as a value (`if is_ready:`) but that names a function: a def of
// that name in the file (any level), or an import, when the nearest binding in scope is one.
// A parameter or a local of that name is a value, not a function.
absl::Status CallableName(const LookupArgs& args, const MatchContext&, MatchState& state,
                          std::vector<MatchState>&) {
  const std::string name = LookupArg(args, "name");
  const Document& document = *state.document;
  for (const ScopeName& scoped : NamesInScope(document, ts_node_start_byte(state.statement))) {
    if (scoped.name != name) continue;
    if (scoped.kind == ScopeName::Kind::kImport) return absl::OkStatus();
    if (scoped.kind != ScopeName::Kind::kGlobal && scoped.kind != ScopeName::Kind::kLocal) break;
    bool def = false;
    WalkTree(document.root(), [&](TSNode node) {
      if (IsType(node, "function_definition") &&
          document.NodeText(ts_node_child_by_field_name(node, "name", 4)) == name) {
        def = true;
        return Walk::kStop;
      }
      return Walk::kDescend;
    });
    if (def) return absl::OkStatus();
    break;
  }
  return LookupFails(Concat("`", name, "` is not a function defined or imported here"));
}

// A name assigned inside a loop that the def set up as an empty list before the loop: the
// loop was meant to add to it (`handles = []` ... `for m in ms: handles = hooks(m)` keeps
// only the last loop's handles).
absl::Status ListAccumulator(const LookupArgs& args, const MatchContext&, MatchState& state,
                             std::vector<MatchState>&) {
  const std::string name = LookupArg(args, "name");
  const Document& document = *state.document;
  std::optional<TSNode> def = EnclosingDef(state);
  if (!def) return LookupFails("the site is not in a def");
  std::optional<TSNode> loop =
      EnclosingOfType(state.statement, {"for_statement", "while_statement"});
  if (!loop || ts_node_start_byte(*loop) < ts_node_start_byte(*def))
    return LookupFails("the site is not in a loop of its def");
  // The outermost loop of the def around the site: the list is set up before all of them.
  for (std::optional<TSNode> outer = loop;
       outer && ts_node_start_byte(*outer) > ts_node_start_byte(*def);
       outer = EnclosingOfType(ts_node_parent(*outer),
                               {"for_statement", "while_statement", "function_definition"})) {
    if (IsType(*outer, "function_definition")) break;
    loop = outer;
  }
  bool found = false;
  WalkTree(*def, [&](TSNode node) {
    if (ts_node_start_byte(node) >= ts_node_start_byte(*loop)) return Walk::kStop;
    if (IsType(node, "function_definition") && !ts_node_eq(node, *def)) return Walk::kSkip;
    if (!IsType(node, "assignment")) return Walk::kDescend;
    const TSNode left = ts_node_child_by_field_name(node, "left", 4);
    const TSNode right = ts_node_child_by_field_name(node, "right", 5);
    const std::string_view value = ts_node_is_null(right) ? "" : document.NodeText(right);
    if (document.NodeText(left) == name && (value == "[]" || value == "list()")) found = true;
    return Walk::kSkip;
  });
  if (!found)
    return LookupFails(Concat("`", name, "` is not set to an empty list before the loop"));
  return absl::OkStatus();
}

namespace {

// The container kinds a method changes in place, by the method's name.
std::vector<std::string_view> KindsMutatedBy(std::string_view method) {
  static const std::map<std::string_view, std::vector<std::string_view>> kKinds = {
      {"add", {"set"}},
      {"discard", {"set"}},
      {"difference_update", {"set"}},
      {"intersection_update", {"set"}},
      {"symmetric_difference_update", {"set"}},
      {"append", {"list"}},
      {"extend", {"list"}},
      {"insert", {"list"}},
      {"sort", {"list"}},
      {"reverse", {"list"}},
      {"setdefault", {"dict"}},
      {"popitem", {"dict"}},
      {"update", {"dict", "set"}},
      {"pop", {"dict", "list", "set"}},
      {"clear", {"dict", "list", "set"}},
      {"remove", {"list", "set"}},
  };
  auto found = kKinds.find(method);
  return found == kKinds.end() ? std::vector<std::string_view>{} : found->second;
}

}  // namespace

// The one list of in-place methods: templates that copy before a change ask it by name.
absl::Status InPlaceMethod(const LookupArgs& args, const MatchContext&, MatchState&,
                           std::vector<MatchState>&) {
  const std::string method = LookupArg(args, "method");
  if (KindsMutatedBy(method).empty())
    return LookupFails(
        Concat("`", method, "` is not a set, list or dict method that changes its object"));
  return absl::OkStatus();
}

// A local bound at the site to a value the function does not own (an attribute, a parameter,
// an item) that the def then changes in place: the change reaches the owner's container. Binds
// `container`, the type to copy it with: the one kind every in-place change fits, or, where
// several fit, the one the name says (`buffers_set`, `names_list`, `kwargs_dict`).
absl::Status MutatedLater(const LookupArgs& args, const MatchContext&, MatchState& state,
                          std::vector<MatchState>&) {
  const std::string name = LookupArg(args, "name");
  const Document& document = *state.document;
  std::optional<TSNode> def = EnclosingDef(state);
  if (!def) return LookupFails("the site is not in a def");
  std::set<std::string_view> kinds = {"dict", "list", "set"};
  bool mutated = false;
  const uint32_t after = ts_node_end_byte(state.statement);
  WalkTree(*def, [&](TSNode node) {
    if (ts_node_end_byte(node) <= after) return Walk::kSkip;
    if (IsType(node, "function_definition") && !ts_node_eq(node, *def)) return Walk::kSkip;
    std::vector<std::string_view> fits;
    if (IsType(node, "call")) {
      const TSNode callee = ts_node_child_by_field_name(node, "function", 8);
      if (IsType(callee, "attribute") &&
          document.NodeText(ts_node_child_by_field_name(callee, "object", 6)) == name) {
        fits =
            KindsMutatedBy(document.NodeText(ts_node_child_by_field_name(callee, "attribute", 9)));
      }
    } else if (IsType(node, "assignment") || IsType(node, "augmented_assignment") ||
               IsType(node, "delete_statement")) {
      const TSNode target = IsType(node, "delete_statement")
                                ? ts_node_named_child(node, 0)
                                : ts_node_child_by_field_name(node, "left", 4);
      if (IsType(target, "subscript") &&
          document.NodeText(ts_node_child_by_field_name(target, "value", 5)) == name) {
        fits = {"dict", "list"};
      } else if (IsType(node, "augmented_assignment") && document.NodeText(target) == name) {
        const std::string_view op =
            document.NodeText(ts_node_child_by_field_name(node, "operator", 8));
        // `d |= other` merges dicts too; `&=`, `-=` and `^=` are set operators only.
        if (op == "|=") fits = {"set", "dict"};
        if (op == "&=" || op == "-=" || op == "^=") fits = {"set"};
        if (op == "+=") fits = {"list"};
      }
    }
    if (!fits.empty()) {
      mutated = true;
      std::erase_if(kinds, [&](std::string_view kind) {
        return std::find(fits.begin(), fits.end(), kind) == fits.end();
      });
    }
    return Walk::kDescend;
  });
  if (!mutated) return LookupFails(Concat("`", name, "` is not changed in place after the site"));
  if (kinds.size() > 1) {
    std::erase_if(kinds, [&](std::string_view kind) {
      return name.find(std::string(kind)) == std::string::npos;
    });
  }
  if (kinds.size() != 1)
    return LookupFails(Concat("the changes to `", name, "` do not tell which container it is"));
  state.bindings["container"] = std::string(*kinds.begin());
  return absl::OkStatus();
}

// A def nested in another, whose parameter `name` repeats a parameter of the enclosing def: the
// nested def reads that value from the closure anyway, so the parameter is one too many for a
// caller that passes only the rest (a decorator factory's `def do_register(name, cls)`, which
// the decorator calls with `cls` alone: "missing 1 required positional argument: 'cls'", the
// argument meant for `cls` having filled `name`). Holds when `name` comes before the parameter
// `before` (the one the message says is missing) and the enclosing def calls the nested one
// exactly once, passing its own `name` positionally in that place; binds that argument as the
// node `passed`, to drop with the parameter.
absl::Status ShadowedParameter(const LookupArgs& args, const MatchContext&, MatchState& state,
                               std::vector<MatchState>&) {
  SMALLFIX_ASSIGN_OR_RETURN(TSNode inner, CaptureNode(args, "def", state));
  const std::string name = LookupArg(args, "name");
  const Document& document = *state.document;
  if (!IsType(inner, "function_definition")) return LookupFails("@def is not a def");
  std::optional<TSNode> outer = EnclosingOfType(ts_node_parent(inner), {"function_definition"});
  if (!outer) return LookupFails("the def is not nested in another");
  bool shadows = false;
  for (const Parameter& parameter : Parameters(document, *outer)) shadows |= parameter.name == name;
  if (!shadows) return LookupFails(Concat("`", name, "` is not a parameter of the enclosing def"));
  // Its place among the positional parameters.
  const std::string before = LookupArg(args, "before");
  std::optional<size_t> index, before_index;
  size_t position = 0;
  for (const Parameter& parameter : Parameters(document, inner)) {
    if (parameter.kind != Parameter::Kind::kPositionalOrKeyword &&
        parameter.kind != Parameter::Kind::kPositionalOnly) {
      break;
    }
    if (parameter.name.empty()) continue;  // the `/` marker
    if (parameter.name == name) index = position;
    if (parameter.name == before) before_index = position;
    ++position;
  }
  if (!index) return LookupFails(Concat("`", name, "` is not a positional parameter"));
  if (!before_index || *before_index <= *index)
    return LookupFails(Concat("`", name, "` does not come before `", before, "`"));
  const std::string_view inner_name =
      document.NodeText(ts_node_child_by_field_name(inner, "name", 4));
  std::vector<TSNode> passed;
  bool other_call = false;
  WalkTree(ts_node_child_by_field_name(*outer, "body", 4), [&](TSNode node) {
    if (ts_node_eq(node, inner)) return Walk::kSkip;
    if (!IsType(node, "call") ||
        document.NodeText(ts_node_child_by_field_name(node, "function", 8)) != inner_name) {
      return Walk::kDescend;
    }
    // With `*xs` in the call, which argument lands in the parameter's place is unknown.
    const CallBinding binding = BindCall(document, node, {});
    const std::vector<TSNode>& positional = binding.positionals;
    if (!binding.has_list_splat && *index < positional.size() &&
        IsType(positional[*index], "identifier") && document.NodeText(positional[*index]) == name) {
      passed.push_back(positional[*index]);
    } else {
      other_call = true;
    }
    return Walk::kDescend;
  });
  if (other_call)
    return LookupFails(Concat("a call of ", inner_name, "() does not pass `", name, "` there"));
  if (passed.size() != 1) {
    return LookupFails(Concat("the enclosing def calls ", inner_name, "() ",
                              std::to_string(passed.size()), " times, not once"));
  }
  state.nodes["passed"] = passed.front();
  state.bindings["passed"] = std::string(document.NodeText(passed.front()));
  return absl::OkStatus();
}

}  // namespace smallfix
