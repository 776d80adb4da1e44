// Where a None came from: the sites GenerateCandidates adds for `'NoneType' object has no
// attribute ...` and its kin, so the fix can go where the value was made (a function that
// runs off its end, a `dict.get` without a default) and not only where it was used.
#include <set>

#include "engine/index/value_origin.h"
#include "engine/repair/candidate_generator.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// At most this many names of the site statement are followed.
constexpr size_t kMaxNames = 2;

bool IsNoneSymptom(const SymptomInput& symptom) {
  return symptom.symptom_class.starts_with("none-") || symptom.message.find("'NoneType'") != std::string::npos ||
         symptom.message.find("NoneType object") != std::string::npos;
}

// The names in the statement that the None may be: the objects whose attribute `attr` is read
// (all attribute reads when the message names none), then subscripted, iterated or called names.
std::vector<std::string> SuspectNames(const Document& document, TSNode statement, const std::string& attr) {
  std::vector<std::string> names;
  auto add = [&](TSNode node) {
    if (!IsType(node, "identifier") && !IsType(node, "attribute")) return;
    std::string text(document.NodeText(node));
    if (text == "self" || text.find('(') != std::string::npos) return;
    if (std::find(names.begin(), names.end(), text) == names.end()) names.push_back(std::move(text));
  };
  WalkTree(statement, [&](TSNode node) {
    if (IsType(node, "function_definition") || IsType(node, "class_definition") || IsType(node, "block")) {
      return ts_node_eq(node, statement) ? Walk::kDescend : Walk::kSkip;
    }
    if (IsType(node, "attribute")) {
      TSNode field = ts_node_child_by_field_name(node, "attribute", 9);
      if (attr.empty() || document.NodeText(field) == attr) add(ts_node_child_by_field_name(node, "object", 6));
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

}  // namespace

std::vector<RepairSite> NoneCauseSites(const Document& document, const RepairSite& site,
                                       const SymptomInput& symptom, const RepoIndex* index,
                                       const std::function<absl::StatusOr<Document>(const std::string&)>& load,
                                       double factor) {
  std::vector<RepairSite> sites;
  if (!IsNoneSymptom(symptom)) return sites;
  std::optional<TSNode> statement = StatementAtLine(document, site.line - 1);
  if (!statement) return sites;
  auto attr = symptom.fields.find("attr");
  const std::string attr_name = attr == symptom.fields.end() ? "" : attr->second;
  std::set<std::pair<std::string, int>> seen = {{site.file, site.line}};
  for (const std::string& name : SuspectNames(document, *statement, attr_name)) {
    for (const ValueOrigin& origin : OriginsOf(document, site.line, name, index, load)) {
      if (!seen.insert({origin.file, origin.line}).second) continue;
      double score = site.score;
      for (int hop = 0; hop < origin.hops; ++hop) score *= factor;
      sites.push_back({origin.file, origin.line, score});
    }
  }
  return sites;
}

}  // namespace smallfix
