#include "engine/patterns/placeholders.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;

TEST(PlaceholdersTest, FindsNamesAndLeavesPythonBracesAlone) {
  EXPECT_THAT(PlaceholderNames("if {value} is None:\n    return {}"), ElementsAre("value"));
  EXPECT_THAT(PlaceholderNames("cfg = {'a': {x.y}} {{literal}}"), ElementsAre("x.y"));
}

TEST(PlaceholdersTest, ExpandsAndNamesTheUnboundOne) {
  Bindings bindings = {{"value", "p.grad"}};
  EXPECT_EQ(*Expand("if {value} is None: {{}}", bindings), "if p.grad is None: {}");
  absl::StatusOr<std::string> missing = Expand("{value} {other}", bindings);
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(std::string(missing.status().message()), ::testing::HasSubstr("{other}"));
}

TEST(PlaceholdersTest, AnOptionalPlaceholderExpandsToNothingWhenUnbound) {
  EXPECT_THAT(PlaceholderNames("f({group?}) {x}"), ElementsAre("group", "x"));
  EXPECT_EQ(*Expand("get_world_size({group?})", {{"group", "pg"}}), "get_world_size(pg)");
  EXPECT_EQ(*Expand("get_world_size({group?})", {}), "get_world_size()");
  EXPECT_FALSE(Expand("{group?} {x}", {}).ok());
  // `?` elsewhere is text: a dict literal, a conditional in a regex.
  EXPECT_EQ(*Expand("{x}?}", {{"x", "a"}}), "a?}");
}

}  // namespace
}  // namespace smallfix
