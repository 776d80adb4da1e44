#include "engine/mine/abstraction.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix::mine {
namespace {

Document Parse(const std::string& text) { return *Document::Parse("t.py", text); }

TEST(Abstraction, NamesBecomePlaceholdersInOrderAndKeepWellKnownNames) {
  const Document doc = Parse("if grad is None:\n    return self.step(grad, 3, 'x')\n");
  Abstracter names;
  EXPECT_EQ(names.Abstract(doc, doc.root()), "if $A is None: return self.$B($A, $N, $S)");
  EXPECT_EQ(names.PlaceholderOf("grad"), "$A");
  EXPECT_EQ(names.PlaceholderOf("self"), "");
}

TEST(Abstraction, PlaceholdersAreSharedWithinOneAbstracter) {
  const Document before = Parse("x = foo(a)\n");
  const Document after = Parse("x = foo(a, b=1.5)\n");
  Abstracter names;
  EXPECT_EQ(names.Abstract(before, before.root()), "$A = $B($C)");
  EXPECT_EQ(names.Abstract(after, after.root()), "$A = $B($C, $D=$N)");
}

TEST(Abstraction, CommentsAreDroppedAndLinesJoined) {
  const Document doc = Parse("a = 1  # one\nb = torch.zeros(a)\n");
  Abstracter names;
  EXPECT_EQ(names.Abstract(doc, doc.root()), "$A = $N; $B = torch.$C($A)");
}

TEST(Abstraction, WellKnownNames) {
  EXPECT_TRUE(IsWellKnownName("None"));
  EXPECT_TRUE(IsWellKnownName("torch"));
  EXPECT_FALSE(IsWellKnownName("model"));
}

}  // namespace
}  // namespace smallfix::mine
