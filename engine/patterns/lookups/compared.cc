// The `compared-literals` look-up: the other string literals the code compares the same
// expression with. A test against one value (`device != "cpu"`) that must also admit a
// sibling value names that sibling elsewhere: `device in ["meta", ...]` a few lines away.
#include <algorithm>
#include <map>

#include "engine/base/concat.h"
#include "engine/patterns/lookups/helpers.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

constexpr size_t kMaxSiblings = 2;

// A plain string literal's content (no f-string interpolation), or nullopt.
std::optional<std::string> StringContent(const Document& document, TSNode node) {
  if (!IsType(node, "string")) return std::nullopt;
  std::string content;
  for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) {
    const TSNode child = ts_node_named_child(node, i);
    if (IsType(child, "interpolation")) return std::nullopt;
    if (IsType(child, "string_content")) content += document.NodeText(child);
  }
  return content;
}

struct Sibling {
  std::string text;  // the literal as written
  int count = 0;
  long distance = 0;  // rows from the site to the nearest comparison naming it
};

// Collects, from every comparison in `scope` with two operands, the string literals compared
// with `subject` (by ==, !=, is, or in / not in a list, tuple or set of them).
void Collect(const Document& document, TSNode scope, std::string_view subject, TSNode site,
             std::map<std::string, Sibling>& found) {
  const long site_row = ts_node_start_point(site).row;
  WalkTree(scope, [&](TSNode node) {
    if (!IsType(node, "comparison_operator") || ts_node_eq(node, site)) return Walk::kDescend;
    if (ts_node_named_child_count(node) != 2) return Walk::kDescend;
    const TSNode left = ts_node_named_child(node, 0), right = ts_node_named_child(node, 1);
    std::vector<TSNode> literals;
    auto compared = [&](TSNode self, TSNode other) {
      if (document.NodeText(self) != subject) return;
      if (IsType(other, "string")) {
        literals.push_back(other);
      } else if (IsType(other, "list") || IsType(other, "tuple") || IsType(other, "set")) {
        for (uint32_t i = 0; i < ts_node_named_child_count(other); ++i) {
          literals.push_back(ts_node_named_child(other, i));
        }
      }
    };
    compared(left, right);
    compared(right, left);
    const long distance = std::labs(static_cast<long>(ts_node_start_point(node).row) - site_row);
    for (TSNode literal : literals) {
      std::optional<std::string> content = StringContent(document, literal);
      if (!content) continue;
      Sibling& sibling = found[*content];
      if (sibling.count == 0) {
        sibling.text = std::string(document.NodeText(literal));
        sibling.distance = distance;
      }
      sibling.distance = std::min(sibling.distance, distance);
      ++sibling.count;
    }
    return Walk::kDescend;
  });
}

}  // namespace

absl::Status ComparedLiterals(const LookupArgs& args, const MatchContext&, MatchState& state,
                              std::vector<MatchState>& more) {
  auto node_of = [&](const char* key) -> std::optional<TSNode> {
    auto it = state.nodes.find(LookupArg(args, key));
    if (it == state.nodes.end()) return std::nullopt;
    return it->second;
  };
  std::optional<TSNode> subject = node_of("subject"), literal = node_of("literal");
  if (!subject || !literal)
    return LookupFails("compared-literals needs the @subject and @literal captures");
  const Document& document = *state.document;
  std::optional<std::string> own = StringContent(document, *literal);
  if (!own) return LookupFails("the compared value is not a plain string literal");
  const TSNode site = ts_node_parent(*literal);
  std::map<std::string, Sibling> found;
  std::optional<TSNode> def = EnclosingOfType(site, {"function_definition"});
  if (def) Collect(document, *def, document.NodeText(*subject), site, found);
  found.erase(*own);
  if (found.empty()) {
    Collect(document, document.root(), document.NodeText(*subject), site, found);
    found.erase(*own);
  }
  std::vector<Sibling> siblings;
  for (auto& [content, sibling] : found) siblings.push_back(std::move(sibling));
  // The value compared most often with the expression, then the one compared nearest.
  std::stable_sort(siblings.begin(), siblings.end(), [](const Sibling& a, const Sibling& b) {
    return a.count != b.count ? a.count > b.count : a.distance < b.distance;
  });
  std::vector<std::string> texts;
  for (size_t i = 0; i < siblings.size() && i < kMaxSiblings; ++i)
    texts.push_back(siblings[i].text);
  return BindEach(
      "sibling_literal", texts, state, more,
      Concat("`", document.NodeText(*subject), "` is compared with no other string literal"));
}

}  // namespace smallfix
