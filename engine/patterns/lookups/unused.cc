// The `unused-name` look-up: a value the function computes and then never reads is the
// strongest sign of which name a wrong read meant (`for k, v in d.items(): f(x)`).
#include <algorithm>
#include <map>
#include <set>

#include "engine/base/concat.h"
#include "engine/index/scope.h"
#include "engine/patterns/lookups/helpers.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// True when the identifier is written, not read: inside an assignment's or a for's left
// side, a parameter list, an `as` alias, or the name of a def or class.
bool IsWrite(TSNode identifier) {
  TSNode child = identifier;
  for (TSNode parent = ts_node_parent(child); !ts_node_is_null(parent);
       child = parent, parent = ts_node_parent(parent)) {
    const std::string_view type = ts_node_type(parent);
    if (type == "attribute" || type == "subscript" || type == "call") {
      return false;  // `x.a = 1` and `x[i] = 1` read x
    }
    if (type == "assignment" || type == "for_statement" || type == "for_in_clause") {
      TSNode left = ts_node_child_by_field_name(parent, "left", 4);
      return ts_node_start_byte(left) == ts_node_start_byte(child) &&
             ts_node_end_byte(left) == ts_node_end_byte(child);
    }
    if (type == "parameters" || type == "lambda_parameters" || type == "as_pattern_target")
      return true;
    if (type == "function_definition" || type == "class_definition") {
      TSNode name = ts_node_child_by_field_name(parent, "name", 4);
      return ts_node_eq(name, identifier);
    }
    if (type == "default_parameter" || type == "typed_default_parameter" ||
        type == "typed_parameter") {
      TSNode name = ts_node_child_by_field_name(parent, "name", 4);
      if (ts_node_is_null(name)) name = ts_node_named_child(parent, 0);
      return ts_node_eq(name, identifier);
    }
    if (type == "keyword_argument") {
      return ts_node_eq(ts_node_child_by_field_name(parent, "name", 4), identifier);
    }
    if (type == "block" || type == "expression_statement") return false;
  }
  return false;
}

}  // namespace

absl::Status UnusedName(const LookupArgs& args, const MatchContext&, MatchState& state,
                        std::vector<MatchState>& more) {
  const std::string name = LookupArg(args, "name");
  const Document& document = *state.document;
  std::optional<TSNode> def = EnclosingOfType(state.statement, {"function_definition"});
  if (!def) return LookupFails("the site is not in a def");
  // Reads and writes of each identifier in the def (nested defs included: a closure reads them).
  std::map<std::string, int, std::less<>> reads;
  WalkTree(*def, [&](TSNode node) {
    if (IsType(node, "identifier") && !IsWrite(node)) ++reads[std::string(document.NodeText(node))];
    return Walk::kDescend;
  });
  const bool capitalized = !name.empty() && name[0] >= 'A' && name[0] <= 'Z';
  // Loop variables first (the value the loop is about), then locals, then parameters (an
  // unused parameter is often a hook's signature, so it comes last).
  std::vector<std::pair<int, std::string>> found;
  std::set<std::string, std::less<>> seen;
  for (const ScopeName& scoped : NamesInScope(document, ts_node_start_byte(state.statement))) {
    int order = 0;
    switch (scoped.kind) {
      case ScopeName::Kind::kLoopVariable:
        order = 0;
        break;
      case ScopeName::Kind::kLocal:
        order = 1;
        break;
      case ScopeName::Kind::kParameter:
        order = 2;
        break;
      default:
        continue;
    }
    const std::string& candidate = scoped.name;
    if (candidate == name || candidate.starts_with("_") || candidate == "self" ||
        candidate == "cls" || candidate == "args" || candidate == "kwargs") {
      continue;
    }
    if ((!candidate.empty() && candidate[0] >= 'A' && candidate[0] <= 'Z') != capitalized) continue;
    if (scoped.line < static_cast<int>(ts_node_start_point(*def).row) + 1)
      continue;  // bound outside the def
    if (reads.count(candidate) || !seen.insert(candidate).second) continue;
    found.emplace_back(order, candidate);
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> names;
  for (size_t i = 0; i < found.size() && i < 2; ++i) names.push_back(found[i].second);
  return BindEach("unused", names, state, more,
                  Concat("no name bound in the def is left unread besides `", name, "`"));
}

}  // namespace smallfix
