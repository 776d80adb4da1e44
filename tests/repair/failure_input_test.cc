#include "engine/repair/failure_input.h"

#include <fstream>
#include <string>

#include "engine/base/temp_dir.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

using ::testing::HasSubstr;

TEST(FailureInputTest, TextGivenPassesThroughWithItsKind) {
  FailureSource source;
  source.text = "Traceback (most recent call last):\nValueError: x\n";
  source.kind = FailureKind::kIssue;
  absl::StatusOr<FailureInput> input = GatherFailure("/nonexistent-repo", source);
  ASSERT_TRUE(input.ok()) << input.status();
  EXPECT_EQ(input->text, source.text);
  EXPECT_EQ(input->kind, FailureKind::kIssue);
  EXPECT_TRUE(input->coverage.empty());
  EXPECT_TRUE(input->notes.empty());
  const LocalizeOptions options = LocalizeOptionsFor(*input, 4);
  EXPECT_EQ(options.kind, FailureKind::kIssue);
  EXPECT_EQ(options.max_sites, 4);
}

TEST(FailureInputTest, FilesAreReadWithTheirJUnitReport) {
  absl::StatusOr<TempDir> dir = TempDir::Create("failure-input-test");
  ASSERT_TRUE(dir.ok());
  std::ofstream(dir->path() + "/run.log") << "the log\n";
  std::ofstream(dir->path() + "/junit.xml") << "<testsuite/>\n";
  FailureSource source;
  source.path = dir->path() + "/run.log";
  source.junit_path = dir->path() + "/junit.xml";
  absl::StatusOr<FailureInput> input = GatherFailure(dir->path(), source);
  ASSERT_TRUE(input.ok()) << input.status();
  EXPECT_EQ(input->text, "the log\n");
  EXPECT_EQ(input->junit_xml, "<testsuite/>\n");
  EXPECT_EQ(LocalizeOptionsFor(*input, 10).junit_xml, "<testsuite/>\n");
}

TEST(FailureInputTest, AMissingFileIsAnErrorNamingIt) {
  FailureSource source;
  source.path = "/nonexistent/run.log";
  absl::StatusOr<FailureInput> input = GatherFailure("/tmp", source);
  ASSERT_FALSE(input.ok());
  EXPECT_EQ(input.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(input.status().message(), HasSubstr("/nonexistent/run.log"));
}

TEST(FailureInputTest, ATestRunIsTheFailureOrSaysItPassed) {
  absl::StatusOr<TempDir> dir = TempDir::Create("failure-input-test");
  ASSERT_TRUE(dir.ok());
  FailureSource source;
  source.run.time_limit_seconds = 30;
  source.test = "echo 'ValueError: bad value'; exit 1";
  absl::StatusOr<FailureInput> failed = GatherFailure(dir->path(), source);
  ASSERT_TRUE(failed.ok()) << failed.status();
  EXPECT_FALSE(failed->passed);
  EXPECT_THAT(failed->text, HasSubstr("ValueError: bad value"));

  source.test = "true";
  absl::StatusOr<FailureInput> passed = GatherFailure(dir->path(), source);
  ASSERT_TRUE(passed.ok()) << passed.status();
  EXPECT_TRUE(passed->passed);
}

TEST(FailureInputTest, ACoverageRunWithoutAFailingTestLeavesTheScoresOutWithANote) {
  absl::StatusOr<TempDir> dir = TempDir::Create("failure-input-test");
  ASSERT_TRUE(dir.ok());
  FailureSource source;
  source.text = "ValueError: x\n";
  source.coverage = true;
  source.coverage_test = "true";  // not pytest: no report, no failing test
  source.world_size = 2;
  source.run.time_limit_seconds = 30;
  absl::StatusOr<FailureInput> input = GatherFailure(dir->path(), source);
  ASSERT_TRUE(input.ok()) << input.status();
  EXPECT_TRUE(input->coverage.empty());
  ASSERT_FALSE(input->notes.empty());
  EXPECT_THAT(input->notes.back(), HasSubstr("coverage: `true` showed no failing test"));
  EXPECT_THAT(input->notes.back(), HasSubstr("single-process"));
}

}  // namespace
}  // namespace smallfix
