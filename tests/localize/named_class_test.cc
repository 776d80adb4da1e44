#include "engine/localize/named_class.h"

#include <gtest/gtest.h>

#include "engine/localize/symptom.h"

namespace smallfix {
namespace {

RepoSearch Sources() {
  return RepoSearch::ForTexts({
      {"optim/sharded.py",
       "import torch\n\n\nclass ShardedAdam:\n    def __init__(self, params, lr=1e-3):\n"
       "        self.params = list(params)\n        self.lr = lr\n\n    def _init_state(self):\n"
       "        self.state = {}\n\n    def step(self):\n        self.count = 1\n\n\n"
       "class GradBuckets:\n    def __iter__(self):\n        return iter([])\n"},
      {"tests/test_sharded.py", "class ShardedAdam:\n    pass\n"},
  });
}

TEST(NamedClassTest, ReadsTheClassFromTheMessage) {
  auto named = ClassNamedBy(
      ClassifySymptom("AttributeError", "'optim.ShardedAdam' object has no attribute 'state'"));
  ASSERT_TRUE(named.has_value());
  EXPECT_EQ(named->name, "ShardedAdam");
  EXPECT_EQ(named->attr, "state");
  named = ClassNamedBy(ClassifySymptom("TypeError", "object of type 'GradBuckets' has no len()"));
  ASSERT_TRUE(named.has_value());
  EXPECT_EQ(named->name, "GradBuckets");
  EXPECT_EQ(named->attr, "");
  EXPECT_FALSE(
      ClassNamedBy(ClassifySymptom("AttributeError", "'NoneType' object has no attribute 'x'")));
  EXPECT_FALSE(ClassNamedBy(ClassifySymptom("KeyError", "'ShardedAdam'")));
}

TEST(NamedClassTest, TheAttributesSetterThenInitThenTheClass) {
  RepoSearch search = Sources();
  const std::vector<SearchHit> hits = NamedClassSites({"ShardedAdam", "state"}, search, 10);
  ASSERT_GE(hits.size(), 4u);
  EXPECT_EQ(hits[0].file, "optim/sharded.py");
  EXPECT_EQ(hits[0].line, 10);     // self.state = {} in _init_state
  EXPECT_EQ(hits[1].line, 6);      // __init__'s first attribute set
  EXPECT_EQ(hits[2].line, 13);     // step's first attribute set
  EXPECT_EQ(hits.back().line, 4);  // the class statement
  for (const SearchHit& hit : hits) EXPECT_NE(hit.file, "tests/test_sharded.py");
}

TEST(NamedClassTest, WithoutAnAttributeTheClassStatementFirst) {
  RepoSearch search = Sources();
  const std::vector<SearchHit> hits = NamedClassSites({"GradBuckets", ""}, search, 10);
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0].line, 16);
  EXPECT_TRUE(NamedClassSites({"Missing", "x"}, search, 10).empty());
}

}  // namespace
}  // namespace smallfix
