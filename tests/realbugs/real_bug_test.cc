#include "engine/bench/realbugs/real_bug.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "engine/bench/realbugs/real_bug_runner.h"
#include "engine/bench/realbugs/realbugs_results.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix::realbugs {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class RealBugTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& text) {
    const std::string path = ::testing::TempDir() + "/bugs-" + std::to_string(getpid()) + ".jsonl";
    std::ofstream(path) << text;
    return path;
  }
};

constexpr char kLine[] =
    R"({"id": "acme-0123456789", "project": "acme", "repo": "acme/acme", "fix_commit": "f", "parent_commit": "p",)"
    R"( "family": "guard", "split": "SPLIT", "env": "acme-2026", "source_root": "src", "pytest_args": ["-k", "not slow"],)"
    R"( "env_vars": {"PL_RUN_STANDALONE_TESTS": "1"}, "files": ["src/acme/x.py"],)"
    R"( "failing_tests": ["tests/test_x.py::test_a b"], "regression_tests": ["tests/test_x.py"],)"
    R"( "held_back_tests": [], "processes": 2, "pypi": {"package": "acme", "buggy": "1.0", "fixed": "1.1"}})";

std::string Line(const std::string& id, const std::string& split) {
  std::string line = kLine;
  line.replace(line.find("acme-0123456789"), 15, id);
  line.replace(line.find("SPLIT"), 5, split);
  return line + "\n";
}

TEST_F(RealBugTest, ReadsEveryFieldAndChoosesBySplitAndId) {
  const std::string path = Write(Line("a-1", "dev") + "\n" + Line("b-2", "test"));
  absl::StatusOr<std::vector<RealBug>> all = LoadRealBugs(path, {}, "");
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), 2u);
  const RealBug& bug = (*all)[0];
  EXPECT_EQ(bug.source_root, "src");
  EXPECT_EQ(bug.processes, 2);
  EXPECT_TRUE(bug.on_pypi);
  EXPECT_THAT(bug.files, ElementsAre("src/acme/x.py"));
  absl::StatusOr<std::vector<RealBug>> test = LoadRealBugs(path, {}, "test");
  ASSERT_TRUE(test.ok());
  ASSERT_EQ(test->size(), 1u);
  EXPECT_EQ((*test)[0].id, "b-2");
  absl::StatusOr<std::vector<RealBug>> one = LoadRealBugs(path, {"a-1"}, "test");  // another split: none
  ASSERT_TRUE(one.ok());
  EXPECT_TRUE(one->empty());
}

TEST_F(RealBugTest, CommandQuotesTestIdsAndEnvironmentKeepsTheHubOffline) {
  absl::StatusOr<std::vector<RealBug>> bugs = LoadRealBugs(Write(Line("a-1", "dev")), {}, "");
  ASSERT_TRUE(bugs.ok());
  const RealBug& bug = (*bugs)[0];
  EXPECT_EQ(bug.TestCommand(bug.failing_tests),
            "python -m pytest -q -p no:cacheprovider '-k' 'not slow' 'tests/test_x.py::test_a b'");
  const auto env = bug.Environment();
  EXPECT_EQ(env.at("PYTHONPATH"), "src");
  EXPECT_EQ(env.at("HF_HUB_OFFLINE"), "1");
  EXPECT_EQ(env.at("PL_RUN_STANDALONE_TESTS"), "1");
}

TEST_F(RealBugTest, RefusesNamingTheLineAndField) {
  std::string no_env = Line("a-1", "dev");
  const std::string env_field = R"("env": "acme-2026", )";
  no_env.replace(no_env.find(env_field), env_field.size(), "");
  absl::StatusOr<std::vector<RealBug>> bad = LoadRealBugs(Write(Line("a-1", "dev") + no_env), {}, "");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr(":2: missing field 'env'"));

  std::string wrong = Line("a-1", "dev");
  const std::string processes = R"("processes": 2)";
  wrong.replace(wrong.find(processes), processes.size(), R"("processes": "two")");
  bad = LoadRealBugs(Write(wrong), {}, "");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr(":1: field 'processes' has the wrong type"));

  bad = LoadRealBugs(Write("not json\n"), {}, "");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr(":1: not a JSON object"));

  bad = LoadRealBugs(Write(Line("a-1", "dev")), {"zzz"}, "");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("no bug 'zzz'"));
}

TEST(RealbugsTotalsTest, CountsAndTakesTheMedianOfPlausibleTimeRatios) {
  std::vector<RealBugResult> results(4);
  results[0].plausible = results[0].correct = true;
  results[0].localization_rank = 1;
  results[0].cold_seconds = 2;
  results[0].first_plausible_seconds = 10;  // ratio 5
  results[1].plausible = results[1].overfit = true;
  results[1].localization_rank = 3;
  results[1].cold_seconds = 4;
  results[1].first_plausible_seconds = 4;  // ratio 1
  results[2].localization_rank = 4;
  results[2].processes = 2;
  results[3].error = "no venv";
  const RealbugsTotals t = Totals(results);
  EXPECT_EQ(t.bugs, 4);
  EXPECT_EQ(t.errors, 1);
  EXPECT_EQ(t.multi_process, 1);
  EXPECT_EQ(t.plausible, 2);
  EXPECT_EQ(t.correct, 1);
  EXPECT_EQ(t.overfit, 1);
  EXPECT_EQ(t.localized_top1, 1);
  EXPECT_EQ(t.localized_top3, 2);
  ASSERT_TRUE(t.median_time_ratio.has_value());
  EXPECT_DOUBLE_EQ(*t.median_time_ratio, 3.0);
}

}  // namespace
}  // namespace smallfix::realbugs

namespace smallfix::realbugs {
namespace {

// A coloured pytest output (a project's config may ask for colour) names its error too.
TEST(SymptomLineTest, TheLastErrorLineWithoutColours) {
  const std::string output =
      "\x1b[1m\x1b[31mE           ValueError: You requested to find 0 devices\x1b[0m\n"
      "\x1b[1m\x1b[31msrc/pkg/cuda.py\x1b[0m:95: ValueError\n"
      "FAILED tests/test_cuda.py::test_find - ValueError: You requested...\n";
  EXPECT_EQ(SymptomLine(output), "ValueError: You requested to find 0 devices");
  EXPECT_EQ(SymptomLine("1 passed in 0.1s\n"), "");
}

}  // namespace
}  // namespace smallfix::realbugs
