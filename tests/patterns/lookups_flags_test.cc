// The `flag-name` look-up: which switch it offers for a condition, and when it offers none.
#include <string>
#include <vector>

#include "engine/patterns/lookups/lookup.h"
#include "engine/source/syntax.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

// Runs flag-name on the condition of the if, elif, while or assert on `line` (1-based).
absl::Status RunFlagName(const std::string& code, int line, MatchState& state) {
  static std::vector<Document>* keep = new std::vector<Document>();
  absl::StatusOr<Document> document = Document::Parse("m.py", code);
  if (!document.ok()) return document.status();
  keep->push_back(*std::move(document));
  const Document& doc = keep->back();
  std::optional<TSNode> condition;
  WalkTree(doc.root(), [&](TSNode node) {
    if (static_cast<int>(ts_node_start_point(node).row) + 1 != line) return Walk::kDescend;
    if (IsType(node, "if_statement") || IsType(node, "elif_clause") || IsType(node, "while_statement")) {
      condition = ts_node_child_by_field_name(node, "condition", 9);
    } else if (IsType(node, "assert_statement")) {
      condition = ts_node_named_child(node, 0);
    }
    return condition ? Walk::kStop : Walk::kDescend;
  });
  if (!condition) return absl::NotFoundError("no condition on that line");
  state.document = &doc;
  state.statement = *StatementAtLine(doc, line - 1);
  state.nodes["cond"] = *condition;
  std::vector<MatchState> more;
  absl::Status status = FindLookupSpec("flag-name")->run({{"condition", "cond"}}, MatchContext{}, state, more);
  EXPECT_TRUE(more.empty()) << "one answer at most";
  return status;
}

TEST(FlagNameTest, PrefersTheFlagTestedWithTheConditionsNames) {
  const std::string code =
      "def forward(x, grad_enabled, fp8=False, keep: bool = False):\n"
      "    if fp8:\n"
      "        x = x.half()\n"
      "    if fp8 and x:\n"
      "        x = x.half()\n"
      "    if grad_enabled or keep:\n"
      "        x = x.clone()\n"
      "    if not grad_enabled:\n"
      "        x = x.detach()\n";
  MatchState state;
  ASSERT_TRUE(RunFlagName(code, 8, state).ok());
  EXPECT_EQ(state.bindings["flag"], "keep");
  EXPECT_EQ(state.bindings["and_operand"], "not grad_enabled");
}

TEST(FlagNameTest, FindsAClassSwitchTestedNegatedInAnotherMethod) {
  const std::string code =
      "class W:\n"
      "    def __init__(self, b):\n"
      "        self.broadcast = b\n"
      "        self.accumulate = False\n"
      "        self.use_buckets = b > 0\n"
      "    def reduce(self):\n"
      "        if self.use_buckets:\n"
      "            pass\n"
      "        if not self.accumulate:\n"
      "            pass\n"
      "    def forward(self):\n"
      "        if self.broadcast:\n"
      "            self.sync()\n";
  MatchState state;
  ASSERT_TRUE(RunFlagName(code, 12, state).ok());
  // Both are tested once; the one tested as `not` is the likelier `and not` to add.
  EXPECT_EQ(state.bindings["flag"], "self.accumulate");
}

TEST(FlagNameTest, ParenthesisesAnOrForAnd) {
  const std::string code =
      "def f(a, b, dry=False):\n"
      "    if dry:\n"
      "        return\n"
      "    while a or b:\n"
      "        a = b\n";
  MatchState state;
  ASSERT_TRUE(RunFlagName(code, 4, state).ok());
  EXPECT_EQ(state.bindings["flag"], "dry");
  EXPECT_EQ(state.bindings["and_operand"], "(a or b)");
  EXPECT_EQ(state.bindings["or_operand"], "a or b");
}

TEST(FlagNameTest, NoFlagWhenNoneIsTestedElsewhere) {
  const std::string code =
      "def f(a, verbose=False, obj=None):\n"
      "    print(verbose, obj.verbose)\n"
      "    if a:\n"
      "        return 1\n";
  MatchState state;
  EXPECT_TRUE(absl::IsNotFound(RunFlagName(code, 3, state)));
}

TEST(FlagNameTest, NeverOffersAFlagTheConditionReads) {
  const std::string code =
      "def f(a, use_cache=False):\n"
      "    if use_cache and a:\n"
      "        return 1\n"
      "    if not use_cache:\n"
      "        return 2\n";
  MatchState state;
  EXPECT_TRUE(absl::IsNotFound(RunFlagName(code, 2, state)));
}

TEST(FlagNameTest, NotInADef) {
  MatchState state;
  EXPECT_TRUE(absl::IsNotFound(RunFlagName("debug = True\nif debug:\n    x = 1\n", 2, state)));
}

}  // namespace
}  // namespace smallfix
