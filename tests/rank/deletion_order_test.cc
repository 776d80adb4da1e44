// What counts as an edit that only deletes code, and the validation order DemoteDeletions
// leaves.
#include "engine/rank/deletion_order.h"

#include "gtest/gtest.h"

namespace smallfix {
namespace {

Candidate Change(const std::string& before, const std::string& after) {
  Candidate candidate;
  candidate.template_id = "t";
  candidate.changes = {{"pkg/m.py", before, after}};
  return candidate;
}

TEST(DeletionOrderTest, RemovingAStatementDeletes) {
  EXPECT_TRUE(OnlyDeletesCode(Change("def f(x):\n    log(x)\n    return x\n",
                                     "def f(x):\n    return x\n")));
}

TEST(DeletionOrderTest, RemovingABlocksOnlyStatementLeavesPassAndDeletes) {
  EXPECT_TRUE(OnlyDeletesCode(Change("if x:\n    launch(x)\ny = 1\n", "if x:\n    pass\ny = 1\n")));
}

TEST(DeletionOrderTest, DroppingAnOperandOrAnArgumentDeletes) {
  EXPECT_TRUE(OnlyDeletesCode(Change("if a in names or isinstance(s, S):\n    go()\n",
                                     "if a in names:\n    go()\n")));
  // The longest common prefix alone would say `r, ba` was removed, inside two words.
  EXPECT_TRUE(OnlyDeletesCode(Change("f(bar, baz)\n", "f(baz)\n")));
  EXPECT_TRUE(OnlyDeletesCode(Change("n = size - 1\n", "n = size\n")));
}

TEST(DeletionOrderTest, WritingCodeOrChangingAWordDoesNotDelete) {
  // `elif` to `if` removes letters of a keyword: another statement, not less code.
  EXPECT_FALSE(OnlyDeletesCode(Change("if a:\n    x()\nelif b:\n    y()\n",
                                      "if a:\n    x()\nif b:\n    y()\n")));
  EXPECT_FALSE(OnlyDeletesCode(Change("i = idx[0]\n", "i = idx[-1]\n")));
  EXPECT_FALSE(OnlyDeletesCode(Change("f(a)\n", "if a is not None:\n    f(a)\n")));
  EXPECT_FALSE(OnlyDeletesCode(Change("f(a, b)\n", "f(a, c)\n")));
  // Layout alone is no deletion either.
  EXPECT_FALSE(OnlyDeletesCode(Change("f(a,  b)\n", "f(a, b)\n")));
  EXPECT_FALSE(OnlyDeletesCode(Candidate{}));
}

TEST(DeletionOrderTest, DeletionsTheSymptomDidNotAskForGoLastInOrder) {
  auto scored = [](const std::string& id, Candidate candidate, double symptom_score) {
    ScoredCandidate s;
    s.candidate = std::move(candidate);
    s.candidate.template_id = id;
    s.candidate.symptom_score = symptom_score;
    return s;
  };
  std::vector<ScoredCandidate> candidates = {
      scored("generic.remove-statement", Change("a()\nb()\n", "b()\n"), 0),
      scored("generic.integer-off-by-one", Change("x[0]\n", "x[1]\n"), 0),
      // Asked for: the TypeError names the keyword the callee rejects.
      scored("param.drop-unexpected-keyword", Change("f(a, k=1)\n", "f(a)\n"), 0.9),
      scored("generic.drop-argument", Change("f(a, b)\n", "f(a)\n"), 0),
      scored("guard.none-continue", Change("f(a)\n", "if a is None:\n    continue\nf(a)\n"), 0.8),
  };
  DemoteDeletions(candidates);
  std::vector<std::string> order;
  for (const ScoredCandidate& c : candidates) order.push_back(c.candidate.template_id);
  EXPECT_EQ(order, (std::vector<std::string>{"generic.integer-off-by-one",
                                             "param.drop-unexpected-keyword", "guard.none-continue",
                                             "generic.remove-statement", "generic.drop-argument"}));
}

}  // namespace
}  // namespace smallfix
