// `synthesized-guard`: the conditions over the values at the site that held in the failing run
// and in no passing run at that line (engine/facts/guard_synthesis.h), best first, for a guard
// template's condition holes.
#include <cctype>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/facts/guard_synthesis.h"
#include "engine/index/scope.h"
#include "engine/index/tree_walk.h"
#include "engine/patterns/lookups/failing_run.h"
#include "engine/patterns/lookups/helpers.h"
#include "engine/source/syntax.h"

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

// The line of the `raise` that opens the first branch of the `if` `statement`, 0 when it does
// not start with one. The values there are those the condition saw: nothing runs between.
int RaiseLineOfCondition(TSNode statement) {
  if (!IsType(statement, "if_statement")) return 0;
  const std::vector<TSNode> body = NamedChildrenSkippingComments(Field(statement, "consequence"));
  if (body.empty() || !IsType(body.front(), "raise_statement")) return 0;
  return static_cast<int>(ts_node_start_point(body.front()).row) + 1;
}

// `condition` (an `and` of operands, or one) with `guard` as one more operand: in front of the
// first operand that reads `subject` (so that it short-cuts that read), else in front of the
// first that calls something (cheap tests first), else last.
std::string WithConjunct(const Document& document, TSNode condition, std::string_view guard,
                         std::string_view subject) {
  std::vector<TSNode> operands;
  std::function<void(TSNode)> flatten = [&](TSNode node) {
    if (IsType(node, "boolean_operator") && document.NodeText(Field(node, "operator")) == "and") {
      flatten(Field(node, "left"));
      flatten(Field(node, "right"));
    } else {
      operands.push_back(node);
    }
  };
  flatten(condition);
  auto first = [&](auto&& test) {
    for (size_t i = 0; i < operands.size(); ++i) {
      if (test(operands[i])) return i;
    }
    return operands.size();
  };
  size_t at = first([&](TSNode n) {
    return FindExpression(document.NodeText(n), subject) != std::string_view::npos;
  });
  if (at == operands.size()) {
    at = first(HasCall);
  }
  std::string out;
  for (size_t i = 0; i <= operands.size(); ++i) {
    if (i == at) out += Concat(out.empty() ? "" : " and ", guard);
    if (i < operands.size())
      out += Concat(out.empty() ? "" : " and ", document.NodeText(operands[i]));
  }
  return out;
}

}  // namespace

absl::Status SynthesizedGuard(const LookupArgs& args, const MatchContext& context,
                              MatchState& state, std::vector<MatchState>& more) {
  SMALLFIX_ASSIGN_OR_RETURN(const RuntimeFacts* facts, FailingRun(context));
  GuardSite site;
  site.file = state.bindings["file"];
  if (!absl::SimpleAtoi(state.bindings["line"], &site.line)) return LookupFails("no site line");
  site.statement = state.bindings["statement"];
  const Document& document = *state.document;
  const uint32_t at = ts_node_start_byte(state.statement);
  site.bound = [&document, at](std::string_view name) { return IsNameInScope(document, at, name); };
  std::vector<GuardCondition> found = SynthesizeGuards(*facts, site);
  if (const int raise_line = RaiseLineOfCondition(state.statement);
      found.empty() && raise_line > site.line) {
    site.line = raise_line;  // the failing frame is at the raise the condition chose
    found = SynthesizeGuards(*facts, site);
  }
  std::optional<TSNode> condition;
  if (!LookupArg(args, "condition").empty()) {
    SMALLFIX_ASSIGN_OR_RETURN(condition, CaptureNode(args, "condition", state));
  }
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
    if (condition) {
      target.bindings["guard_and_condition"] =
          WithConjunct(document, *condition, found[i].negation, found[i].subject);
    }
  }
  return absl::OkStatus();
}

}  // namespace smallfix
