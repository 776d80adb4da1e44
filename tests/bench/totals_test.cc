#include "engine/bench/smallfix/totals.h"

#include <gtest/gtest.h>

namespace smallfix::bench {
namespace {

BugResult Bug(const std::string& family, bool plausible, bool correct, double seconds, std::optional<int> rank = {}) {
  BugResult result;
  result.id = family + "-x";
  result.family = family;
  result.plausible = plausible;
  result.correct = correct;
  result.seconds = seconds;
  result.rank = rank;
  return result;
}

TEST(TotalsTest, SumsPerFamilyAndOverAll) {
  std::vector<BugResult> bugs = {Bug("guard", true, true, 10, 1), Bug("guard", true, false, 20),
                                 Bug("guard", false, false, 60), Bug("param", true, true, 5, 2)};
  bugs[2].error = "boom";
  const std::map<std::string, Totals> totals = ComputeTotals(bugs);
  ASSERT_EQ(totals.size(), 3u);
  const Totals& guard = totals.at("guard");
  EXPECT_EQ(guard.bugs, 3);
  EXPECT_EQ(guard.plausible, 2);
  EXPECT_EQ(guard.correct, 1);
  EXPECT_EQ(guard.errors, 1);
  EXPECT_EQ(guard.correct_at_rank1, 1);
  EXPECT_DOUBLE_EQ(guard.mean_seconds, 30);
  EXPECT_DOUBLE_EQ(guard.median_seconds, 20);
  EXPECT_DOUBLE_EQ(guard.PlausibleRate(), 2.0 / 3);
  const Totals& all = totals.at("all");
  EXPECT_EQ(all.bugs, 4);
  EXPECT_EQ(all.plausible, 3);
  EXPECT_EQ(all.correct, 2);
  EXPECT_EQ(all.correct_at_rank1, 1);
  EXPECT_DOUBLE_EQ(all.median_seconds, 15);  // (10 + 20) / 2
  EXPECT_DOUBLE_EQ(all.CorrectRate(), 0.5);
}

TEST(TotalsTest, OrderIsFamiliesThenAll) {
  const std::vector<BugResult> bugs = {Bug("other", false, false, 1), Bug("compat", true, true, 1),
                                       Bug("guard", true, true, 1)};
  EXPECT_EQ(TotalsOrder(ComputeTotals(bugs)), (std::vector<std::string>{"guard", "compat", "other", "all"}));
}

TEST(TotalsTest, EmptyRunHasAnEmptyAll) {
  const std::map<std::string, Totals> totals = ComputeTotals({});
  ASSERT_EQ(totals.size(), 1u);
  EXPECT_EQ(totals.at("all").bugs, 0);
  EXPECT_EQ(totals.at("all").PlausibleRate(), 0);
  EXPECT_EQ(totals.at("all").median_seconds, 0);
}

}  // namespace
}  // namespace smallfix::bench
