#include "benchmarks/realfix/runner/realfix_results.h"

#include <gtest/gtest.h>

namespace smallfix::realfix {
namespace {

// A fix of several parts says in the JSON how many of its hunks some candidate makes alone,
// and at which rank; a fix of one part has no `parts`.
TEST(RealfixResultsTest, PartsOfAMultiHunkFix) {
  FixResult multi;
  multi.id = "a-1";
  multi.without_symptom.candidates = 30;
  multi.without_symptom.parts = {PartOutcome{12, 4, "generic.remove-statement"}, PartOutcome{40, std::nullopt, ""}};
  multi.with_symptom = multi.without_symptom;
  FixResult single;
  single.id = "a-2";
  RealfixRun run;
  run.results = {multi, single};
  const nlohmann::json json = RealfixJson(run);
  const nlohmann::json& parts = json["fixes"][0]["without_symptom"]["parts"];
  EXPECT_EQ(parts["count"], 2);
  EXPECT_EQ(parts["reproduced"], 1);
  EXPECT_EQ(parts["each"][0]["line"], 12);
  EXPECT_EQ(parts["each"][0]["rank"], 4);
  EXPECT_EQ(parts["each"][0]["template"], "generic.remove-statement");
  EXPECT_TRUE(parts["each"][1]["rank"].is_null());
  EXPECT_FALSE(json["fixes"][1]["without_symptom"].contains("parts"));
}

}  // namespace
}  // namespace smallfix::realfix
