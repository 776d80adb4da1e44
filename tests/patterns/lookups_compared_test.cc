// The `compared-literals` look-up: which other strings it offers for a comparison.
#include <string>
#include <vector>

#include "engine/patterns/lookups/lookup.h"
#include "engine/source/syntax.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

// Runs compared-literals on the first two-operand comparison with a string on `line` (1-based);
// returns the answers, or the look-up's error.
absl::StatusOr<std::vector<std::string>> Siblings(const std::string& code, int line) {
  static std::vector<Document>* keep = new std::vector<Document>();
  absl::StatusOr<Document> parsed = Document::Parse("m.py", code);
  if (!parsed.ok()) return parsed.status();
  keep->push_back(*std::move(parsed));
  const Document& doc = keep->back();
  std::optional<TSNode> comparison;
  WalkTree(doc.root(), [&](TSNode node) {
    if (IsType(node, "comparison_operator") && static_cast<int>(ts_node_start_point(node).row) + 1 == line) {
      comparison = node;
      return Walk::kStop;
    }
    return Walk::kDescend;
  });
  if (!comparison) return absl::NotFoundError("no comparison on that line");
  MatchState state;
  state.document = &doc;
  state.statement = *StatementAtLine(doc, line - 1);
  state.nodes["subject"] = ts_node_named_child(*comparison, 0);
  state.nodes["literal"] = ts_node_named_child(*comparison, 1);
  std::vector<MatchState> more;
  absl::Status status = FindLookupSpec("compared-literals")->run({{"subject", "subject"}, {"literal", "literal"}}, MatchContext{}, state, more);
  if (!status.ok()) return status;
  std::vector<std::string> out = {state.bindings["sibling_literal"]};
  for (MatchState& other : more) out.push_back(other.bindings["sibling_literal"]);
  return out;
}

TEST(ComparedLiteralsTest, OffersTheStringsTheSameExpressionIsComparedWith) {
  const std::string code =
      "def move(device, kind):\n"
      "    if kind == 'disk':\n"
      "        return\n"
      "    if device in ['meta', torch.device('meta')]:\n"
      "        return\n"
      "    if device == 'cpu' or device == \"meta\" or device == 'disk':\n"
      "        pass\n"
      "    if device != \"cpu\":\n"
      "        empty_cache()\n";
  absl::StatusOr<std::vector<std::string>> siblings = Siblings(code, 8);
  ASSERT_TRUE(siblings.ok()) << siblings.status();
  // "meta" twice, "disk" once for `device` (once for `kind`, which does not count); "cpu" is its own.
  EXPECT_EQ(*siblings, (std::vector<std::string>{"'meta'", "'disk'"}));
}

TEST(ComparedLiteralsTest, FallsBackToTheModule) {
  const std::string code =
      "def a(x):\n"
      "    return x.type == 'xpu'\n"
      "def b(x):\n"
      "    return x.type == 'cuda'\n";
  absl::StatusOr<std::vector<std::string>> siblings = Siblings(code, 4);
  ASSERT_TRUE(siblings.ok()) << siblings.status();
  EXPECT_EQ(*siblings, (std::vector<std::string>{"'xpu'"}));
}

TEST(ComparedLiteralsTest, NoneWhenTheExpressionIsComparedWithNothingElse) {
  const std::string code =
      "def a(x, y):\n"
      "    if y == 'meta' or x == f'{y}':\n"
      "        return x == 'cpu'\n";
  EXPECT_TRUE(absl::IsNotFound(Siblings(code, 3).status()));
}

}  // namespace
}  // namespace smallfix
