// The `flag-name` look-up: the boolean switch a test most likely forgot to consult. A
// condition that runs a branch too often often lacks one more flag of the same function or
// class (`if self.broadcast_buffers:` that must also skip while gradients accumulate); the
// flag to add is one the code already tests elsewhere, most likely next to a name of this
// condition.
#include <algorithm>
#include <set>
#include <tuple>

#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/patterns/lookups/helpers.h"
#include "engine/source/signature_edits.h"
#include "engine/source/syntax.h"
#include "re2/re2.h"

namespace smallfix {
namespace {

// Names that say they hold a switch: is_x, use_x, enable_x, should_x, has_x, x_enabled, training,
// ...
bool LooksBoolean(std::string_view name) {
  static const RE2* pattern = new RE2(
      "^_*(is|use|enable|enabled|should|has|do|need|needs|can|allow|skip|with|apply|training|debug|"
      "verbose|"
      "strict)(_|$)|_(enabled|disabled|only)$");
  return RE2::PartialMatch(name, *pattern);
}

bool IsBoolLiteral(TSNode node) { return IsType(node, "true") || IsType(node, "false"); }

// Whether a parameter node is a switch: a True/False default, a bool annotation or a switch's name.
bool IsFlagParameter(const Document& document, const Parameter& parameter) {
  if (parameter.name.empty() || parameter.name == "self" || parameter.name == "cls") return false;
  if (parameter.kind == Parameter::Kind::kVarPositional ||
      parameter.kind == Parameter::Kind::kVarKeyword) {
    return false;
  }
  const TSNode value = ts_node_child_by_field_name(parameter.node, "value", 5);
  if (!ts_node_is_null(value) && IsBoolLiteral(value)) return true;
  const TSNode type = ts_node_child_by_field_name(parameter.node, "type", 4);
  if (!ts_node_is_null(type)) {
    const std::string_view text = document.NodeText(type);
    if (text == "bool" || text == "Optional[bool]") return true;
  }
  return LooksBoolean(parameter.name);
}

// `self.x` for every attribute a method of `cls` assigns on `receiver` that is a switch:
// assigned True or False somewhere, or named like one.
std::vector<std::string> FlagAttributes(const Document& document, TSNode cls,
                                        std::string_view receiver) {
  std::vector<std::string> names;
  std::set<std::string, std::less<>> boolean;
  WalkTree(cls, [&](TSNode node) {
    if (!IsType(node, "assignment")) return Walk::kDescend;
    const TSNode left = ts_node_child_by_field_name(node, "left", 4);
    const TSNode right = ts_node_child_by_field_name(node, "right", 5);
    if (IsType(left, "attribute") &&
        document.NodeText(ts_node_child_by_field_name(left, "object", 6)) == receiver) {
      const std::string name(document.NodeText(left));
      const std::string_view attribute =
          document.NodeText(ts_node_child_by_field_name(left, "attribute", 9));
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
      if ((!ts_node_is_null(right) && IsBoolLiteral(right)) || LooksBoolean(attribute))
        boolean.insert(name);
    }
    return Walk::kDescend;
  });
  std::vector<std::string> flags;
  for (const std::string& name : names) {
    if (boolean.contains(name)) flags.push_back(name);
  }
  return flags;
}

// The names an expression reads: plain identifiers and whole attribute chains (`self.a.b`,
// `self.a`), never the bare receiver `self`/`cls` that every method shares.
std::set<std::string, std::less<>> NamesRead(const Document& document, TSNode expression) {
  std::set<std::string, std::less<>> names;
  WalkTree(expression, [&](TSNode node) {
    const TSNode parent = ts_node_parent(node);
    if (IsType(node, "attribute")) {
      names.emplace(document.NodeText(node));
    } else if (IsType(node, "identifier")) {
      const bool member = IsType(parent, "attribute") &&
                          ts_node_eq(ts_node_child_by_field_name(parent, "attribute", 9), node);
      const bool keyword = IsType(parent, "keyword_argument") &&
                           ts_node_eq(ts_node_child_by_field_name(parent, "name", 4), node);
      if (!member && !keyword) names.emplace(document.NodeText(node));
    }
    return Walk::kDescend;
  });
  names.erase("self");
  names.erase("cls");
  return names;
}

// Where `node` is read as a truth value (an if/elif/while/assert test, an operand of and/or/not,
// a conditional expression's test): the outermost and/or/not expression around it, or the
// node itself; nullopt when it is not read as a truth value. `negated` tells whether a `not`
// applies to it.
std::optional<TSNode> TruthTest(TSNode node, bool& negated) {
  TSNode inner = node;
  TSNode parent = ts_node_parent(inner);
  negated = false;
  while (IsType(parent, "parenthesized_expression") || IsType(parent, "not_operator")) {
    negated |= IsType(parent, "not_operator");
    inner = parent;
    parent = ts_node_parent(inner);
  }
  bool test = negated || IsType(parent, "boolean_operator");
  if (IsType(parent, "if_statement") || IsType(parent, "elif_clause") ||
      IsType(parent, "while_statement")) {
    test = ts_node_eq(ts_node_child_by_field_name(parent, "condition", 9), inner);
  } else if (IsType(parent, "assert_statement")) {
    test = ts_node_eq(ts_node_named_child(parent, 0), inner);
  } else if (IsType(parent, "conditional_expression")) {
    test =
        ts_node_named_child_count(parent) == 3 && ts_node_eq(ts_node_named_child(parent, 1), inner);
  }
  if (!test) return std::nullopt;
  while (IsType(parent, "boolean_operator") || IsType(parent, "not_operator") ||
         IsType(parent, "parenthesized_expression")) {
    inner = parent;
    parent = ts_node_parent(inner);
  }
  return inner;
}

// The evidence that `flag` belongs in the condition, compared in this order: how often it
// is tested together with a name the condition reads, how often the enclosing def tests it,
// how often its scope (the def, or the class for an attribute) tests it negated (the fixes
// add `not flag`: a switch whose being off is already a condition elsewhere), how often the
// scope tests it at all, and how near the nearest test is (lines, smaller is better, hence
// negated).
using Evidence = std::tuple<int, int, int, int, long>;

Evidence Weigh(const Document& document, std::string_view flag, TSNode scope, TSNode def,
               int site_row, const std::set<std::string, std::less<>>& condition_names) {
  int together = 0, in_def = 0, negated = 0, in_scope = 0;
  long nearest = -1000000;
  WalkTree(scope, [&](TSNode node) {
    if (!IsType(node, "identifier") && !IsType(node, "attribute")) return Walk::kDescend;
    if (document.NodeText(node) != flag) return Walk::kDescend;
    const TSNode parent = ts_node_parent(node);
    if (IsType(node, "identifier") &&
        ((IsType(parent, "attribute") &&
          ts_node_eq(ts_node_child_by_field_name(parent, "attribute", 9), node)) ||
         IsType(parent, "keyword_argument"))) {
      return Walk::kSkip;  // `ctx.flag` or `flag=` is not the parameter `flag`
    }
    bool is_negated = false;
    std::optional<TSNode> test = TruthTest(node, is_negated);
    if (!test) return Walk::kSkip;
    ++in_scope;
    negated += is_negated;
    const uint32_t start = ts_node_start_byte(node);
    in_def += start >= ts_node_start_byte(def) && start < ts_node_end_byte(def);
    const std::set<std::string, std::less<>> around = NamesRead(document, *test);
    together += std::any_of(around.begin(), around.end(), [&](const std::string& name) {
      return condition_names.contains(name);
    });
    const long distance = std::labs(static_cast<long>(ts_node_start_point(node).row) - site_row);
    nearest = std::max(nearest, -distance);
    return Walk::kSkip;
  });
  return {together, in_def, negated, in_scope, nearest};
}

// The condition's text as an operand of `and` (an `or`, a conditional expression, a lambda or
// a walrus need parentheses there) and of `or` (a conditional expression, a lambda or a walrus do).
std::string Operand(const Document& document, TSNode condition, bool of_and) {
  const std::string text(document.NodeText(condition));
  bool wrap = IsType(condition, "conditional_expression") || IsType(condition, "lambda") ||
              IsType(condition, "named_expression");
  if (of_and && IsType(condition, "boolean_operator")) {
    wrap |= document.NodeText(ts_node_child_by_field_name(condition, "operator", 8)) == "or";
  }
  return wrap ? Concat("(", text, ")") : text;
}

}  // namespace

absl::Status FlagName(const LookupArgs& args, const MatchContext&, MatchState& state,
                      std::vector<MatchState>&) {
  SMALLFIX_ASSIGN_OR_RETURN(TSNode captured, CaptureNode(args, "condition", state));
  const Document& document = *state.document;
  const TSNode condition = captured;
  std::optional<TSNode> def = EnclosingOfType(condition, {"function_definition"});
  if (!def) return LookupFails("the condition is not in a def");
  const std::set<std::string, std::less<>> condition_names = NamesRead(document, condition);
  const int site_row = static_cast<int>(ts_node_start_point(condition).row);

  std::vector<std::pair<std::string, TSNode>> flags;  // a flag and the scope it is tested in
  const std::vector<Parameter> parameters = Parameters(document, *def);
  for (const Parameter& parameter : parameters) {
    if (IsFlagParameter(document, parameter)) flags.emplace_back(parameter.name, *def);
  }
  const TSNode cls = ClassOfMethod(*def);
  if (!ts_node_is_null(cls) && !parameters.empty() && !parameters.front().name.empty()) {
    for (std::string& name : FlagAttributes(document, cls, parameters.front().name)) {
      flags.emplace_back(std::move(name), cls);
    }
  }
  std::optional<std::pair<Evidence, std::string>> best;
  for (const auto& [flag, scope] : flags) {
    if (condition_names.contains(flag)) continue;  // already part of the test
    const Evidence evidence = Weigh(document, flag, scope, *def, site_row, condition_names);
    if (std::get<3>(evidence) == 0) continue;  // never tested: no sign that it is a switch here
    if (!best || evidence > best->first) best = {evidence, flag};
  }
  if (!best) return LookupFails("no flag of the def or its class is tested elsewhere");
  state.bindings["flag"] = best->second;
  state.bindings["and_operand"] = Operand(document, condition, true);
  state.bindings["or_operand"] = Operand(document, condition, false);
  return absl::OkStatus();
}

}  // namespace smallfix
