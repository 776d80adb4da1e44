#include "validators/test_runner.h"

#include <string>

#include "engine/base/temp_dir.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

TEST(RunnerKindTest, NamesRoundTrip) {
  for (RunnerKind kind : {RunnerKind::kLocal, RunnerKind::kTorchrun, RunnerKind::kSlurm}) {
    EXPECT_EQ(ParseRunnerKind(RunnerKindName(kind)), kind);
  }
  EXPECT_EQ(ParseRunnerKind("Local"), std::nullopt);
  EXPECT_EQ(ParseRunnerKind(""), std::nullopt);
}

TEST(TestRunnerTest, LocalRunnerReportsTheExitStatus) {
  absl::StatusOr<TempDir> dir = TempDir::Create("runner-test");
  ASSERT_TRUE(dir.ok());
  RunnerOptions options;
  options.time_limit_seconds = 30;
  std::unique_ptr<TestRunner> runner = MakeTestRunner(RunnerKind::kLocal, options);
  absl::StatusOr<TestRun> passed = runner->Run(dir->path(), "echo hello");
  ASSERT_TRUE(passed.ok()) << passed.status();
  EXPECT_TRUE(passed->passed);
  EXPECT_EQ(passed->summary, "exit 0");
  EXPECT_EQ(passed->tests, -1);  // not pytest: no JUnit report
  EXPECT_NE(passed->output.find("hello"), std::string::npos);

  absl::StatusOr<TestRun> failed = runner->Run(dir->path(), "exit 3");
  ASSERT_TRUE(failed.ok());
  EXPECT_FALSE(failed->passed);
  EXPECT_EQ(failed->summary, "exit 3");
}

TEST(TestRunnerTest, TorchrunRunnerStartsEveryRankWithItsEnvironment) {
  absl::StatusOr<TempDir> dir = TempDir::Create("runner-test");
  ASSERT_TRUE(dir.ok());
  RunnerOptions options;
  options.kind = RunnerKind::kTorchrun;
  options.world_size = 2;
  options.time_limit_seconds = 30;
  absl::StatusOr<TestRun> run = RunTestCommand(
      dir->path(), "echo rank=$RANK world=$WORLD_SIZE && test -n \"$MASTER_PORT\"", options);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_TRUE(run->passed) << run->output;
  EXPECT_NE(run->output.find("[rank0]:rank=0 world=2"), std::string::npos) << run->output;
  EXPECT_NE(run->output.find("[rank1]:rank=1 world=2"), std::string::npos) << run->output;
}

// One rank fails at once; the other would sleep for its whole limit in a collective. It is
// stopped after the grace period instead.
TEST(TestRunnerTest, AFailedRankStopsTheOthersAfterTheGracePeriod) {
  absl::StatusOr<TempDir> dir = TempDir::Create("runner-test");
  ASSERT_TRUE(dir.ok());
  RunnerOptions options;
  options.kind = RunnerKind::kTorchrun;
  options.world_size = 2;
  options.time_limit_seconds = 60;
  absl::StatusOr<TestRun> run =
      RunTestCommand(dir->path(), "if [ \"$RANK\" = 1 ]; then exit 7; fi; sleep 50", options);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_FALSE(run->passed);
  EXPECT_FALSE(run->timed_out);
  EXPECT_LT(run->seconds, 30);
}

TEST(TestRunnerTest, CancelStopsTheRun) {
  absl::StatusOr<TempDir> dir = TempDir::Create("runner-test");
  ASSERT_TRUE(dir.ok());
  std::atomic<bool> cancel{true};
  RunnerOptions options;
  options.cancel = &cancel;
  absl::StatusOr<TestRun> run = RunTestCommand(dir->path(), "sleep 50", options);
  ASSERT_TRUE(run.ok());
  EXPECT_TRUE(run->cancelled);
  EXPECT_FALSE(run->passed);
  EXPECT_EQ(run->summary, "cancelled");
}

}  // namespace
}  // namespace smallfix
