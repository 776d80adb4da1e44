#include "engine/bench/realfix/realfix_results.h"

#include <gmock/gmock.h>
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
  // Totals: one fix of several parts, some of them made.
  const nlohmann::json& totals = json["totals"]["without_symptom"]["parts"];
  EXPECT_EQ(totals["fixes"], 1);
  EXPECT_EQ(totals["all_made"], 0);
  EXPECT_EQ(totals["some_made"], 1);
  EXPECT_THAT(RealfixSummary(run), testing::HasSubstr("1 fixes of 2+ parts; every part made alone by some candidate in 0"));
}

// Every part made but the whole missing from the first five is what combination misses.
TEST(RealfixResultsTest, AllPartsMadeButNotTheWhole) {
  FixResult fix;
  fix.without_symptom.candidates = 9;
  fix.without_symptom.rank = 7;
  fix.without_symptom.parts = {PartOutcome{1, 2, "t"}, PartOutcome{5, 3, "t"}};
  fix.with_symptom = fix.without_symptom;
  RealfixRun run;
  run.results = {fix};
  const nlohmann::json totals = RealfixJson(run)["totals"]["without_symptom"]["parts"];
  EXPECT_EQ(totals["all_made"], 1);
  EXPECT_EQ(totals["all_made_not_at_5"], 1);
  fix.without_symptom.rank = 5;
  run.results = {fix};
  EXPECT_EQ(RealfixJson(run)["totals"]["without_symptom"]["parts"]["all_made_not_at_5"], 0);
}

}  // namespace
}  // namespace smallfix::realfix
