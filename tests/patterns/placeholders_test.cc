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

}  // namespace
}  // namespace smallfix
