#include "engine/bench/smallfix/bug_spec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace smallfix::bench {
namespace {

using ::testing::HasSubstr;

constexpr char kGood[] = R"(id: guard-none-grad-skip
title: ZeRO-2 style gradient bucketing crashes when some parameters are frozen
family: guard
pattern: none-skip
lines_changed: 2
world_size: 2
component: ZeRO stage 2
upstream:
  repo: microsoft/DeepSpeed
site: {file: minizero/reduce.py, line: 28}
timeout: 60
tests:
  failing: python -m pytest -q -x tests/test_reduce.py::test_frozen_param
  passing: python -m pytest -q tests
  heldback: python -m pytest -q heldback
)";

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

TEST(BugSpecTest, ReadsEveryField) {
  absl::StatusOr<BugSpec> spec = ParseBugSpec(kGood, "bug.yaml", "guard-none-grad-skip");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->id, "guard-none-grad-skip");
  EXPECT_EQ(spec->family, "guard");
  EXPECT_EQ(spec->pattern, "none-skip");
  EXPECT_EQ(spec->lines_changed, 2);
  EXPECT_EQ(spec->world_size, 2);
  EXPECT_EQ(spec->site_file, "minizero/reduce.py");
  EXPECT_EQ(spec->site_line, 28);
  EXPECT_EQ(spec->timeout, 60);
  EXPECT_EQ(spec->failing_test, "python -m pytest -q -x tests/test_reduce.py::test_frozen_param");
  EXPECT_EQ(spec->passing_test, "python -m pytest -q tests");
  EXPECT_EQ(spec->heldback_test, "python -m pytest -q heldback");
}

TEST(BugSpecTest, MissingFieldNamesFileAndLine) {
  absl::StatusOr<BugSpec> spec =
      ParseBugSpec(Replace(kGood, "  heldback: python -m pytest -q heldback\n", ""), "bugs/x/bug.yaml");
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(spec.status().message(), HasSubstr("bugs/x/bug.yaml:"));
  EXPECT_THAT(spec.status().message(), HasSubstr("missing `heldback`"));
}

TEST(BugSpecTest, BadIntegerPointsAtItsLine) {
  absl::StatusOr<BugSpec> spec = ParseBugSpec(Replace(kGood, "world_size: 2", "world_size: two"), "bug.yaml");
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(spec.status().message(), HasSubstr("bug.yaml:6:"));
  EXPECT_THAT(spec.status().message(), HasSubstr("positive integer"));
  spec = ParseBugSpec(Replace(kGood, "timeout: 60", "timeout: 0"), "bug.yaml");
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(spec.status().message(), HasSubstr("bug.yaml:11:"));
}

TEST(BugSpecTest, SyntaxErrorNamesTheLine) {
  absl::StatusOr<BugSpec> spec = ParseBugSpec(Replace(kGood, "site: {file: minizero/reduce.py, line: 28}",
                                                      "site: {file: minizero/reduce.py, line: 28"),
                                              "bug.yaml");
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(spec.status().message(), HasSubstr("bug.yaml:"));
  EXPECT_EQ(spec.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(BugSpecTest, UnknownFamilyAndWrongIdAreErrors) {
  EXPECT_FALSE(ParseBugSpec(Replace(kGood, "family: guard", "family: misc"), "bug.yaml").ok());
  absl::StatusOr<BugSpec> spec = ParseBugSpec(kGood, "bug.yaml", "guard-other-name");
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(spec.status().message(), HasSubstr("bug.yaml:1:"));
  EXPECT_THAT(spec.status().message(), HasSubstr("directory's name"));
}

TEST(BugSpecTest, SiteMustBeAMapping) {
  absl::StatusOr<BugSpec> spec =
      ParseBugSpec(Replace(kGood, "site: {file: minizero/reduce.py, line: 28}", "site: minizero/reduce.py:28"),
                   "bug.yaml");
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(spec.status().message(), HasSubstr("`site` must be"));
}

TEST(BugSpecTest, LoadsTheBenchmarksBugs) {
  const std::string dir = std::string(SMALLFIX_SOURCE_DIR) + "/benchmarks/smallfix/bugs";
  absl::StatusOr<std::vector<BugSpec>> bugs = LoadBugs(dir, {});
  ASSERT_TRUE(bugs.ok()) << bugs.status();
  EXPECT_GE(bugs->size(), 40u);
  for (const BugSpec& bug : *bugs) EXPECT_TRUE(bug.id.starts_with(bug.family)) << bug.id;

  absl::StatusOr<std::vector<BugSpec>> two = LoadBugs(dir, {"param-drop-unexpected-kwarg", "guard-none-grad-skip"});
  ASSERT_TRUE(two.ok()) << two.status();
  ASSERT_EQ(two->size(), 2u);
  EXPECT_EQ((*two)[0].id, "param-drop-unexpected-kwarg");
  EXPECT_EQ((*two)[1].ProjectDir(), dir + "/guard-none-grad-skip/project");
}

TEST(BugSpecTest, UnknownBugAndMissingDirAreErrors) {
  const std::string dir = std::string(SMALLFIX_SOURCE_DIR) + "/benchmarks/smallfix/bugs";
  absl::StatusOr<std::vector<BugSpec>> bugs = LoadBugs(dir, {"no-such-bug"});
  ASSERT_FALSE(bugs.ok());
  EXPECT_THAT(bugs.status().message(), HasSubstr("--bug no-such-bug"));
  EXPECT_FALSE(LoadBugs(dir, {"../bugs"}).ok());
  bugs = LoadBugs("/nonexistent/bugs", {});
  ASSERT_FALSE(bugs.ok());
  EXPECT_THAT(bugs.status().message(), HasSubstr("not a directory"));
}

}  // namespace
}  // namespace smallfix::bench
