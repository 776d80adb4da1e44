#include "engine/mine/tree_diff.h"

#include "engine/mine/abstraction.h"
#include "engine/mine/edit_shape.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix::mine {
namespace {

Document Parse(const std::string& text) { return *Document::Parse("t.py", text); }

// Every edit of before -> after, described as the miner does.
std::vector<std::string> Shapes(const std::string& before_text, const std::string& after_text) {
  const Document before = Parse(before_text), after = Parse(after_text);
  std::vector<std::string> out;
  for (const TreeEdit& edit : DiffTrees(before, after)) {
    Abstracter names;
    out.push_back(AbstractTreeEdit(before, after, edit, names).Describe());
  }
  return out;
}

TEST(TreeDiff, OperatorChangeIsTheSmallestSubtree) {
  const Document before = Parse("def f(i, n):\n    return i < n\n");
  const Document after = Parse("def f(i, n):\n    return i <= n\n");
  const std::vector<TreeEdit> edits = DiffTrees(before, after);
  ASSERT_EQ(edits.size(), 1u);
  ASSERT_EQ(edits[0].removed.size(), 1u);
  EXPECT_EQ(before.NodeText(edits[0].removed[0]), "<");
  EXPECT_EQ(after.NodeText(edits[0].inserted[0]), "<=");
  EXPECT_EQ(edits[0].before_row, 1);
  EXPECT_STREQ(ts_node_type(edits[0].after_parent), "comparison_operator");
}

TEST(TreeDiff, GuardInsertedBeforeAStatementUsingItsName) {
  EXPECT_THAT(Shapes("def f(x):\n    y = 1\n    return x.size\n",
                     "def f(x):\n    y = 1\n    if x is None:\n        return\n    return x.size\n"),
              testing::ElementsAre("insert `if $A is None: return` before a statement using $A"));
}

TEST(TreeDiff, KeywordArgumentAddedToACall) {
  EXPECT_THAT(Shapes("y = model.forward(x)\n", "y = model.forward(x, use_cache=False)\n"),
              testing::ElementsAre("insert `$A=False` in the arguments of a call of $B"));
}

TEST(TreeDiff, TwoSeparateChangesGiveTwoEdits) {
  EXPECT_THAT(Shapes("a = 1\nb = f(a)\nc = a < b\n", "a = 2\nb = f(a)\nc = a <= b\n"),
              testing::ElementsAre("change `$N` to `$N` in assignment", "change `<` to `<=` in comparison_operator"));
}

TEST(TreeDiff, CommentOnlyChangeHasNoEdit) {
  EXPECT_THAT(Shapes("a = 1  # old\n", "a = 1  # new\n"), testing::IsEmpty());
}

TEST(TreeDiff, StatementDeleted) {
  EXPECT_THAT(Shapes("def f(x):\n    print(x)\n    return x\n", "def f(x):\n    return x\n"),
              testing::ElementsAre("delete `print($A)`"));
}

}  // namespace
}  // namespace smallfix::mine
