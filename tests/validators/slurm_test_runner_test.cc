// SlurmTestRunner against stand-in Slurm commands (no cluster): sbatch runs the job script at
// once with the variables Slurm sets, srun starts a rank per task, and scontrol reports the
// state the script ended in, or the one a test forces (FAKE_SLURM_STATE). The real cluster's
// tests are in tests/slurm/.
#include "validators/slurm/slurm_test_runner.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "engine/base/temp_dir.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

using ::testing::HasSubstr;

constexpr char kSbatch[] = R"sh(#!/bin/bash
# sbatch --parsable --chdir=D --output=F [args] SCRIPT: runs SCRIPT now, as job 42.
for arg; do case "$arg" in --output=*) out="${arg#--output=}" ;; --partition=nosuch) \
  echo "sbatch: error: invalid partition specified: nosuch" >&2; exit 1 ;; esac; done
script="${!#}"
export SLURM_JOB_ID=42 SLURM_NTASKS=2 SLURM_NTASKS_PER_NODE=2 SLURM_JOB_NODELIST=localhost
if [ -z "${FAKE_SLURM_STATE:-}" ]; then bash "$script" > "$out" 2>&1; echo $? > "$FAKE_SLURM_DIR/status"; fi
echo 42
)sh";
constexpr char kSrun[] = R"sh(#!/bin/bash
while [[ "$1" == --* ]]; do shift; done
for ((i = 0; i < SLURM_NTASKS; i++)); do SLURM_PROCID=$i SLURM_LOCALID=$i "$@" & done
status=0; for job in $(jobs -p); do wait "$job" || status=$?; done; exit $status
)sh";
constexpr char kScontrol[] = R"sh(#!/bin/bash
case "$2" in
  hostnames) echo localhost ;;
  job)
    if [ -n "${FAKE_SLURM_STATE:-}" ]; then echo "JobId=42 JobState=$FAKE_SLURM_STATE ExitCode=0:0"
    elif [ "$(cat "$FAKE_SLURM_DIR/status")" = 0 ]; then echo "JobId=42 JobState=COMPLETED Reason=None ExitCode=0:0"
    else echo "JobId=42 JobState=FAILED Reason=NonZeroExitCode ExitCode=1:0"; fi ;;
esac
)sh";

class SlurmTestRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<TempDir> dir = TempDir::Create("slurm-runner-test");
    ASSERT_TRUE(dir.ok());
    dir_.emplace(*std::move(dir));
    const std::string bin = dir_->path() + "/bin";
    mkdir(bin.c_str(), 0755);
    for (const auto& [name, text] : {std::pair{"sbatch", kSbatch}, std::pair{"srun", kSrun},
                                     std::pair{"scontrol", kScontrol}, std::pair{"scancel", "#!/bin/sh\n"}}) {
      const std::string path = bin + "/" + name;
      std::ofstream(path) << text;
      chmod(path.c_str(), 0755);
    }
    const char* path = getenv("PATH");
    old_path_ = path != nullptr ? path : "";
    setenv("PATH", (bin + ":" + old_path_).c_str(), 1);
    setenv("FAKE_SLURM_DIR", dir_->path().c_str(), 1);
    unsetenv("FAKE_SLURM_STATE");
    workdir_ = dir_->path() + "/wt";
    mkdir(workdir_.c_str(), 0755);
    options_.kind = RunnerKind::kSlurm;
    options_.world_size = 2;
    options_.time_limit_seconds = 30;
    options_.slurm.job_name_prefix = "smallfix-test";
  }
  void TearDown() override {
    setenv("PATH", old_path_.c_str(), 1);
    unsetenv("FAKE_SLURM_DIR");
    unsetenv("FAKE_SLURM_STATE");
  }

  std::optional<TempDir> dir_;
  std::string old_path_, workdir_;
  RunnerOptions options_;
};

TEST_F(SlurmTestRunnerTest, RanksGetTorchrunsEnvironmentAndAreScored) {
  absl::StatusOr<TestRun> run = RunTestCommand(
      workdir_, "echo rank=$RANK of $WORLD_SIZE at $MASTER_ADDR && test -n \"$MASTER_PORT\"", options_);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_TRUE(run->passed) << run->output;
  EXPECT_EQ(run->summary, "exit 0 (slurm job 42 (smallfix-test-wt))");
  EXPECT_THAT(run->output, HasSubstr("[rank0]:rank=0 of 2 at localhost"));
  EXPECT_THAT(run->output, HasSubstr("[rank1]:rank=1 of 2 at localhost"));

  absl::StatusOr<TestRun> failed = RunTestCommand(workdir_, "exit $((RANK + 2))", options_);
  ASSERT_TRUE(failed.ok()) << failed.status();
  EXPECT_FALSE(failed->passed);
  EXPECT_THAT(failed->summary, HasSubstr("exit 2"));
}

// sbatch hands its environment to the job (--export=ALL, as the stand-in does): smallfix's
// secrets stay out of it, a --pass-env name gets through.
TEST_F(SlurmTestRunnerTest, JobsGetNoSecretsButPassedNames) {
  setenv("SMALLFIX_SLURM_TEST_TOKEN", "token-value", 1);
  setenv("SMALLFIX_SLURM_TEST_API_KEY", "key-value", 1);
  options_.pass_env = {"SMALLFIX_SLURM_TEST_API_KEY"};
  absl::StatusOr<TestRun> run = RunTestCommand(workdir_, "env | grep SMALLFIX_SLURM_TEST", options_);
  unsetenv("SMALLFIX_SLURM_TEST_TOKEN");
  unsetenv("SMALLFIX_SLURM_TEST_API_KEY");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(run->output, HasSubstr("[rank1]:SMALLFIX_SLURM_TEST_API_KEY=key-value"));
  EXPECT_THAT(run->output, ::testing::Not(HasSubstr("token-value")));
}

TEST_F(SlurmTestRunnerTest, SlurmsTimeLimitIsATimeout) {
  setenv("FAKE_SLURM_STATE", "TIMEOUT Reason=TimeLimit", 1);
  absl::StatusOr<TestRun> run = RunTestCommand(workdir_, "sleep 600", options_);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_TRUE(run->timed_out);
  EXPECT_FALSE(run->passed);
  EXPECT_THAT(run->summary, HasSubstr("killed by Slurm's time limit (1 min, TIMEOUT)"));
}

TEST_F(SlurmTestRunnerTest, PreemptionIsAnErrorNotATestFailure) {
  setenv("FAKE_SLURM_STATE", "PREEMPTED Reason=None", 1);
  absl::StatusOr<TestRun> run = RunTestCommand(workdir_, "true", options_);
  ASSERT_FALSE(run.ok());
  EXPECT_THAT(std::string(run.status().message()), HasSubstr("slurm job 42 (smallfix-test-wt) preempted"));
}

TEST_F(SlurmTestRunnerTest, AJobWhoseRanksNeverStartedIsAnError) {
  std::ofstream(dir_->path() + "/bin/srun") << "#!/bin/sh\necho 'srun: error: Unable to create step' >&2\nexit 1\n";
  absl::StatusOr<TestRun> run = RunTestCommand(workdir_, "true", options_);
  ASSERT_FALSE(run.ok());
  EXPECT_THAT(std::string(run.status().message()), HasSubstr("ended FAILED before any rank started: srun: error"));
}

TEST_F(SlurmTestRunnerTest, ARefusedJobSaysWhy) {
  options_.slurm.extra_args = {"--partition=nosuch"};
  absl::StatusOr<TestRun> run = RunTestCommand(workdir_, "true", options_);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(run.status().message()), HasSubstr("sbatch refused the job: invalid partition specified"));
}

TEST_F(SlurmTestRunnerTest, NoFilesAreLeftInTheWorktree) {
  ASSERT_TRUE(RunTestCommand(workdir_, "true", options_).ok());
  std::error_code error;
  EXPECT_FALSE(std::filesystem::exists(workdir_ + "/.smallfix-slurm", error));
}

}  // namespace
}  // namespace smallfix
