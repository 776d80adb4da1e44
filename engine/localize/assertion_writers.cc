#include "engine/localize/assertion_writers.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>

#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// Methods that change their object in place: torch's trailing underscore (`add_`, `zero_`)
// and the containers' own.
bool Mutates(std::string_view method) {
  static const std::set<std::string_view> kContainer = {"append", "extend", "update", "add",
                                                        "insert", "pop",    "clear",  "setdefault",
                                                        "remove", "discard"};
  if (method.size() > 1 && method.back() == '_' && method.substr(method.size() - 2) != "__")
    return true;
  return kContainer.count(method) > 0;
}

std::string_view AttributeName(const Document& document, TSNode attribute) {
  TSNode name = ts_node_child_by_field_name(attribute, "attribute", 9);
  return ts_node_is_null(name) ? std::string_view() : document.NodeText(name);
}

// The attribute names the statement at `line` reads, less the names it only calls.
void ReadNames(const Document& document, int line, std::set<std::string>& names) {
  std::optional<TSNode> statement = StatementAtLine(document, line - 1);
  if (!statement) return;
  WalkTree(*statement, [&](TSNode node) {
    if (!IsType(node, "attribute")) return Walk::kDescend;
    TSNode parent = ts_node_parent(node);
    const bool called = IsType(parent, "call") &&
                        ts_node_eq(ts_node_child_by_field_name(parent, "function", 8), node);
    if (!called) names.insert(std::string(AttributeName(document, node)));
    return Walk::kDescend;
  });
}

// Whether `target` (an assignment's left side) is, or lists, an attribute named in `names`.
bool WritesName(const Document& document, TSNode target, const std::set<std::string>& names) {
  if (IsType(target, "attribute"))
    return names.count(std::string(AttributeName(document, target))) > 0;
  if (!IsType(target, "pattern_list") && !IsType(target, "tuple_pattern")) return false;
  for (TSNode part : NamedChildrenSkippingComments(target)) {
    if (WritesName(document, part, names)) return true;
  }
  return false;
}

// Whether `node` writes an attribute named in `names`: `x.a = ...`, `x.a += ...`, or
// `x.a.add_(...)`.
bool IsWrite(const Document& document, TSNode node, const std::set<std::string>& names) {
  if (IsType(node, "assignment") || IsType(node, "augmented_assignment")) {
    return WritesName(document, ts_node_child_by_field_name(node, "left", 4), names);
  }
  if (!IsType(node, "call")) return false;
  TSNode function = ts_node_child_by_field_name(node, "function", 8);
  if (!IsType(function, "attribute") || !Mutates(AttributeName(document, function))) return false;
  TSNode object = ts_node_child_by_field_name(function, "object", 6);
  return IsType(object, "attribute") && names.count(std::string(AttributeName(document, object)));
}

// `self.x = None` (or another constant, or an empty container) in `__init__`: the starting
// value that the computation under test replaces, rarely the wrong one.
bool IsInitialValue(const Document& document, TSNode node, TSNode function) {
  TSNode name = ts_node_child_by_field_name(function, "name", 4);
  if (ts_node_is_null(name) || document.NodeText(name) != "__init__" ||
      !IsType(node, "assignment")) {
    return false;
  }
  TSNode value = ts_node_child_by_field_name(node, "right", 5);
  if (ts_node_is_null(value)) return false;
  for (const char* constant : {"none", "true", "false", "integer", "float", "string"}) {
    if (IsType(value, constant)) return true;
  }
  return (IsType(value, "list") || IsType(value, "dictionary") || IsType(value, "tuple")) &&
         ts_node_named_child_count(value) == 0;
}

// The line of the innermost if/elif/else/with header between `statement` and its function.
int GuardLine(TSNode statement) {
  for (TSNode node = ts_node_parent(statement); !ts_node_is_null(node);
       node = ts_node_parent(node)) {
    if (IsType(node, "function_definition")) return 0;
    if (IsType(node, "if_statement") || IsType(node, "elif_clause") ||
        IsType(node, "else_clause") || IsType(node, "with_statement")) {
      return static_cast<int>(ts_node_start_point(node).row) + 1;
    }
  }
  return 0;
}

}  // namespace

LineScores AssertionWriters(SourceFacts& facts,
                            const std::vector<std::pair<std::string, int>>& assertion_lines,
                            const LineScores& coverage) {
  std::set<std::string> names;
  for (const auto& [file, line] : assertion_lines) {
    if (const Document* document = facts.Load(file)) ReadNames(*document, line, names);
  }
  names.erase("");
  LineScores writers;
  double best = 0;
  for (const auto& [key, score] : coverage) best = std::max(best, score);
  if (names.empty() || best <= 0) return writers;
  // The functions the failing test ran, by file and start byte.
  std::map<std::string, std::set<uint32_t>> seen;
  for (const auto& [key, score] : coverage) {
    // Named copies, not structured bindings: the walk's lambda below captures `file`.
    const std::string& file = key.first;
    const Document* document = score > 0 ? facts.Load(file) : nullptr;
    if (document == nullptr) continue;
    std::optional<TSNode> statement = StatementAtLine(*document, key.second - 1);
    if (!statement) continue;
    std::optional<TSNode> function = EnclosingOfType(*statement, {"function_definition"});
    if (!function || !seen[file].insert(ts_node_start_byte(*function)).second) continue;
    WalkTree(*function, [&](TSNode node) {
      if (!ts_node_eq(node, *function) && IsType(node, "function_definition")) return Walk::kSkip;
      if (!IsWrite(*document, node, names)) return Walk::kDescend;
      if (IsInitialValue(*document, node, *function)) return Walk::kSkip;
      std::optional<TSNode> write = StatementAt(*document, ts_node_start_byte(node));
      if (!write) return Walk::kSkip;
      const int at = static_cast<int>(ts_node_start_point(*write).row) + 1;
      const auto ran = coverage.find({file, at});
      const double score =
          best * (ran != coverage.end() && ran->second > 0 ? kRunWrite : kSkippedWrite);
      for (const int place : {at, GuardLine(*write)}) {
        if (place == 0) continue;
        double& kept = writers[{file, place}];
        kept = std::max(kept, score);
      }
      return Walk::kSkip;
    });
  }
  return writers;
}

}  // namespace smallfix
