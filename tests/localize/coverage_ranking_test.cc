#include "engine/localize/coverage_ranking.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

namespace smallfix {
namespace {

TEST(CoverageRankingTest, Ochiai) {
  const PathMapper mapper = PathMapper::ForFiles({"pkg/a.py", "tests/test_a.py"});
  // line 1: run by both failing tests and one passing; line 2: one failing only;
  // line 3: passing only; test files are ignored.
  const std::string json = R"({"files": {
    "pkg/a.py": {"contexts": {
      "1": ["tests.test_a.test_f1", "tests.test_a.test_f2", "tests.test_a.test_p|run"],
      "2": ["tests.test_a.test_f1"],
      "3": ["tests.test_a.test_p", ""]}},
    "tests/test_a.py": {"contexts": {"1": ["tests.test_a.test_f1"]}}}})";
  absl::StatusOr<LineScores> scores =
      OchiaiFromCoverageJson(json, {"test_f1", "test_f2[param]"}, {"test_p"}, mapper);
  ASSERT_TRUE(scores.ok()) << scores.status();
  EXPECT_NEAR(scores->at({"pkg/a.py", 1}), 2 / std::sqrt(2.0 * 3), 1e-9);
  EXPECT_NEAR(scores->at({"pkg/a.py", 2}), 1 / std::sqrt(2.0 * 1), 1e-9);
  EXPECT_EQ(scores->count({"pkg/a.py", 3}), 0u);
  EXPECT_EQ(scores->count({"tests/test_a.py", 1}), 0u);
  EXPECT_FALSE(OchiaiFromCoverageJson("not json", {"a"}, {}, mapper).ok());
  EXPECT_FALSE(OchiaiFromCoverageJson("[]", {"a"}, {}, mapper).ok());
}

TEST(CoverageRankingTest, CombineKeepsTracebackFirstAndAddsCoveredLines) {
  std::vector<Site> sites(1);
  sites[0].file = "pkg/a.py";
  sites[0].line = 2;
  sites[0].score = 1.0;
  const LineScores coverage = {{{"pkg/a.py", 2}, 0.5}, {{"pkg/a.py", 9}, 1.0}};
  CombineWithCoverage(coverage, 0.7, Symptom(), {}, &sites);
  ASSERT_EQ(sites.size(), 2u);
  EXPECT_NEAR(sites[0].score, 0.85, 1e-9);
  EXPECT_EQ(sites[1].line, 9);
  EXPECT_NEAR(sites[1].score, 0.3, 1e-9);
}

TEST(CoverageRankingTest, BoostedLinesTakeTheirScoreAndLeadTheirTies) {
  std::vector<Site> sites;
  const LineScores coverage = {
      {{"pkg/a.py", 3}, 0.5}, {{"pkg/a.py", 7}, 0.5}, {{"pkg/b.py", 1}, 0.25}};
  const LineScores boosted = {{{"pkg/a.py", 7}, 0.6}, {{"pkg/a.py", 9}, 0.5}};
  CombineWithCoverage(coverage, 0.7, Symptom(), boosted, &sites);
  ASSERT_EQ(sites.size(), 4u);
  EXPECT_EQ(sites[0].line, 7);
  EXPECT_NEAR(sites[0].score, 0.18, 1e-9);
  EXPECT_EQ(sites[1].line, 9);  // the failing run never reached it; ahead of its tie
  EXPECT_NEAR(sites[1].score, 0.15, 1e-9);
  EXPECT_EQ(sites[2].line, 3);
  EXPECT_NEAR(sites[2].score, 0.15, 1e-9);
  EXPECT_EQ(sites[3].file, "pkg/b.py");
}

}  // namespace
}  // namespace smallfix
