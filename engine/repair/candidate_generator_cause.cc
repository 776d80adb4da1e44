// Where a bad value came from: the sites GenerateCandidates adds when the failing statement
// only uses a value that was made wrong elsewhere, so the fix can go where it was made. For
// `'NoneType' object has no attribute ...` and its kin: a function that runs off its end, a
// `dict.get` without a default. For a tensor that still holds its autograd graph (deepcopy of
// a non-leaf, numpy() of a tensor that requires grad, a second backward) or has the wrong
// dtype or device: where it, or an element of the container that holds it, was assigned. For
// a `raise` under an `if`: the condition that chose it.
#include <optional>
#include <set>

#include "engine/index/value_origin.h"
#include "engine/repair/candidate_generator.h"
#include "engine/source/syntax.h"
#include "re2/re2.h"

namespace smallfix {
namespace {

// At most this many names of the site statement are followed.
constexpr size_t kMaxNames = 2;

// Messages of a tensor made wrong before the failing statement used it (data: a new row is a
// new kind of value cause).
constexpr std::string_view kTensorCauseMessages =
    R"re((?i)graph leaves|deepcopy protocol|requires grad|backward through the graph a second time|modified by an inplace operation)re";

bool IsTensorCauseSymptom(const Symptom& symptom) {
  static const RE2 pattern{std::string(kTensorCauseMessages)};
  return symptom.symptom_class == "dtype-device-mismatch" ||
         RE2::PartialMatch(symptom.message, pattern);
}

// The values a tensor symptom may be about: self.x attributes the statement reads, then the
// plain names passed as arguments or dict values.
std::vector<std::string> ReadValues(const Document& document, TSNode statement) {
  std::vector<std::string> names;
  auto add = [&](std::string text) {
    if (std::find(names.begin(), names.end(), text) == names.end())
      names.push_back(std::move(text));
  };
  WalkTree(statement, [&](TSNode node) {
    if (IsType(node, "lambda") || IsType(node, "function_definition") ||
        IsType(node, "class_definition")) {
      return Walk::kSkip;
    }
    if (IsType(node, "attribute")) {
      TSNode object = ts_node_child_by_field_name(node, "object", 6);
      if (IsType(object, "identifier") && document.NodeText(object) == "self")
        add(std::string(document.NodeText(node)));
    } else if (IsType(node, "identifier") && document.NodeText(node) != "self") {
      TSNode parent = ts_node_parent(node);
      if (IsType(parent, "argument_list") ||
          (IsType(parent, "pair") &&
           !ts_node_eq(node, ts_node_child_by_field_name(parent, "key", 3)))) {
        add(std::string(document.NodeText(node)));
      }
    }
    return Walk::kDescend;
  });
  if (names.size() > kMaxNames) names.resize(kMaxNames);
  return names;
}

bool IsNoneSymptom(const Symptom& symptom) {
  return symptom.symptom_class.starts_with("none-") ||
         symptom.message.find("'NoneType'") != std::string::npos ||
         symptom.message.find("NoneType object") != std::string::npos;
}

// The names in the statement that the None may be: the objects whose attribute `attr` is read
// (all attribute reads when the message names none), then subscripted, iterated or called names.
std::vector<std::string> SuspectNames(const Document& document, TSNode statement,
                                      const std::string& attr) {
  std::vector<std::string> names;
  auto add = [&](TSNode node) {
    if (!IsType(node, "identifier") && !IsType(node, "attribute")) return;
    std::string text(document.NodeText(node));
    if (text == "self" || text.find('(') != std::string::npos) return;
    if (std::find(names.begin(), names.end(), text) == names.end())
      names.push_back(std::move(text));
  };
  WalkTree(statement, [&](TSNode node) {
    if (IsType(node, "function_definition") || IsType(node, "class_definition") ||
        IsType(node, "block")) {
      return ts_node_eq(node, statement) ? Walk::kDescend : Walk::kSkip;
    }
    if (IsType(node, "attribute")) {
      TSNode field = ts_node_child_by_field_name(node, "attribute", 9);
      if (attr.empty() || document.NodeText(field) == attr)
        add(ts_node_child_by_field_name(node, "object", 6));
    } else if (IsType(node, "subscript")) {
      add(ts_node_child_by_field_name(node, "value", 5));
    } else if (IsType(node, "for_statement")) {
      add(ts_node_child_by_field_name(node, "right", 5));
    } else if (IsType(node, "call")) {
      add(ts_node_child_by_field_name(node, "function", 8));
    }
    return Walk::kDescend;
  });
  if (names.size() > kMaxNames) names.resize(kMaxNames);
  return names;
}

// A `raise` the code chose under an `if` or `elif`: when it should not have run, the check
// was too broad (or too narrow a type test), and the fix edits the condition. Its header's line.
std::optional<int> ChoosingCondition(TSNode statement) {
  if (!IsType(statement, "raise_statement")) return std::nullopt;
  TSNode block = ts_node_parent(statement);
  TSNode clause = ts_node_is_null(block) ? block : ts_node_parent(block);
  if (!IsType(block, "block") || ts_node_is_null(clause) ||
      !(IsType(clause, "if_statement") || IsType(clause, "elif_clause"))) {
    return std::nullopt;
  }
  return static_cast<int>(ts_node_start_point(clause).row) + 1;
}

}  // namespace

std::vector<Site> CauseSites(
    const Document& document, const Site& site, const Symptom& symptom, const RepoIndex* index,
    const std::function<absl::StatusOr<Document>(const std::string&)>& load, double factor) {
  std::vector<Site> sites;
  std::optional<TSNode> statement = StatementAtLine(document, site.line - 1);
  if (!statement) return sites;
  if (std::optional<int> line = ChoosingCondition(*statement); line && *line != site.line) {
    Site cause;
    cause.file = site.file;
    cause.line = *line;
    cause.score = site.score * factor;
    sites.push_back(std::move(cause));
  }
  const bool none = IsNoneSymptom(symptom);
  if (!none && !IsTensorCauseSymptom(symptom)) return sites;
  auto attr = symptom.fields.find("attr");
  const std::string attr_name = attr == symptom.fields.end() ? "" : attr->second;
  const std::vector<std::string> names =
      none ? SuspectNames(document, *statement, attr_name) : ReadValues(document, *statement);
  std::set<std::pair<std::string, int>> seen = {{site.file, site.line}};
  for (const std::string& name : names) {
    for (const ValueOrigin& origin :
         OriginsOf(document, site.line, name, index, load, 3, /*element_writes=*/!none)) {
      if (!seen.insert({origin.file, origin.line}).second) continue;
      double score = site.score;
      for (int hop = 0; hop < origin.hops; ++hop) score *= factor;
      Site cause;
      cause.file = origin.file;
      cause.line = origin.line;
      cause.score = score;
      sites.push_back(std::move(cause));
    }
  }
  return sites;
}

}  // namespace smallfix
