#include "validators/slurm/slurm_job_script.h"

#include <fstream>
#include <string>

#include "engine/base/read_file.h"
#include "engine/base/temp_dir.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "validators/process/process.h"
#include "validators/ranks/rank_outcome.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

SlurmJobSpec TwoRanks() {
  SlurmJobSpec spec;
  spec.name = "smallfix-abc123-c2";
  spec.workdir = "/scratch/wt/c2";
  spec.run_dir = "/scratch/wt/c2/.smallfix-slurm/smallfix-abc123-c2-XYZ";
  spec.command = "python -m pytest -q tests/test_comm.py";
  spec.pytest = true;
  spec.world_size = 2;
  spec.time_limit_minutes = 2;
  spec.env = {{"PYTHONUNBUFFERED", "1"}, {"PATH", "/tmp/shim dir:/usr/bin"}};
  return spec;
}

TEST(TimeLimitMinutesTest, RoundsUpToWholeMinutesAndAtLeastOne) {
  EXPECT_EQ(TimeLimitMinutes(1), 1);
  EXPECT_EQ(TimeLimitMinutes(60), 1);
  EXPECT_EQ(TimeLimitMinutes(61), 2);
  EXPECT_EQ(TimeLimitMinutes(300), 5);
  EXPECT_EQ(TimeLimitMinutes(0), 1);
}

TEST(JobScriptTest, AsksForTheResourcesAsSbatchDirectives) {
  SlurmJobSpec spec = TwoRanks();
  spec.slurm.partition = "gpu";
  spec.slurm.account = "ml";
  spec.slurm.qos = "debug";
  spec.slurm.gpus_per_node = 2;
  const std::string script = JobScript(spec);
  EXPECT_THAT(script, HasSubstr("#SBATCH --job-name=smallfix-abc123-c2\n"));
  EXPECT_THAT(script, HasSubstr("#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=2\n#SBATCH --time=2\n"));
  EXPECT_THAT(script, HasSubstr("#SBATCH --gpus-per-node=2\n"));
  EXPECT_THAT(script, HasSubstr("#SBATCH --partition=gpu\n#SBATCH --account=ml\n#SBATCH --qos=debug\n"));
  EXPECT_THAT(script, HasSubstr("#SBATCH --no-requeue\n"));
  // The validation environment is exported quoted; the step runs rank.sh once per task.
  EXPECT_THAT(script, HasSubstr("export PATH='/tmp/shim dir:/usr/bin'\n"));
  EXPECT_THAT(script, HasSubstr("exec srun --kill-on-bad-exit=1 /bin/sh '" + spec.run_dir + "/rank.sh'\n"));
  // #SBATCH lines are read only before the first command.
  EXPECT_LT(script.rfind("#SBATCH"), script.find("set -u"));
}

// Both scripts are valid shell (bash -n / sh -n parse without running).
TEST(JobScriptTest, ScriptsParse) {
  absl::StatusOr<TempDir> dir = TempDir::Create("slurm-script-test");
  ASSERT_TRUE(dir.ok());
  SlurmJobSpec spec = TwoRanks();
  spec.slurm.gpus_per_node = 1;
  spec.memory_limit_bytes = size_t{1} << 30;
  for (const auto& [shell, text] : {std::pair{"bash", JobScript(spec)}, std::pair{"sh", RankScript(spec)}}) {
    const std::string path = dir->path() + "/script";
    { std::ofstream(path) << text; }
    ProcessOptions process;
    process.argv = {shell, "-n", path};
    process.time_limit_seconds = 30;
    absl::StatusOr<ProcessResult> parsed = RunProcess(process);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(parsed->exit_code, 0) << shell << ": " << parsed->output << "\n" << text;
  }
}

TEST(JobScriptTest, LeavesOutWhatWasNotAskedFor) {
  const std::string script = JobScript(TwoRanks());
  EXPECT_THAT(script, Not(HasSubstr("--gpus-per-node")));
  EXPECT_THAT(script, Not(HasSubstr("--partition")));
  EXPECT_THAT(script, Not(HasSubstr("--account")));
}

TEST(JobScriptTest, SpreadsRanksOverNodes) {
  SlurmJobSpec spec = TwoRanks();
  spec.world_size = 8;
  spec.slurm.nodes = 2;
  EXPECT_THAT(JobScript(spec), HasSubstr("#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=4\n"));
  EXPECT_TRUE(CheckJobSpec(spec).ok());
  spec.world_size = 3;
  EXPECT_THAT(std::string(CheckJobSpec(spec).message()), HasSubstr("3 ranks do not spread evenly over 2 nodes"));
}

TEST(JobScriptTest, RejectsAPartitionWithASpace) {
  SlurmJobSpec spec = TwoRanks();
  spec.slurm.partition = "gpu --account=x";
  EXPECT_THAT(std::string(CheckJobSpec(spec).message()), HasSubstr("partition"));
}

TEST(SbatchArgumentsTest, PathsAndExtraArgumentsOnTheCommandLine) {
  SlurmJobSpec spec = TwoRanks();
  spec.slurm.extra_args = {"--constraint=a100", "--exclusive"};
  EXPECT_THAT(SbatchArguments(spec),
              ElementsAre("sbatch", "--parsable", "--chdir=/scratch/wt/c2", "--output=" + spec.run_dir + "/job.out",
                          "--constraint=a100", "--exclusive", spec.run_dir + "/job.sh"));
}

TEST(RankScriptTest, MapsSlurmTaskVariablesToTorchrunsContract) {
  const std::string script = RankScript(TwoRanks());
  EXPECT_THAT(script, HasSubstr("export RANK=\"${SLURM_PROCID}\"\n"));
  EXPECT_THAT(script, HasSubstr("export LOCAL_RANK=\"${SLURM_LOCALID}\"\n"));
  EXPECT_THAT(script, HasSubstr("export WORLD_SIZE=\"${SLURM_NTASKS}\"\n"));
  EXPECT_THAT(script, HasSubstr("export LOCAL_WORLD_SIZE=\"${SLURM_NTASKS_PER_NODE}\"\n"));
  EXPECT_THAT(script, HasSubstr("export MASTER_ADDR=\"${SMALLFIX_MASTER_ADDR}\"\n"));
  EXPECT_THAT(script, HasSubstr("--junitxml='" + TwoRanks().run_dir + "/rank'\"${SLURM_PROCID}\".xml"));
}

// The rank script run the way srun runs it, with Slurm's task variables set by hand: the
// command sees torchrun's environment, and its output, exit status and report land where
// the runner reads them.
TEST(RankScriptTest, RunsTheCommandWithTheRanksEnvironment) {
  absl::StatusOr<TempDir> dir = TempDir::Create("slurm-script-test");
  ASSERT_TRUE(dir.ok());
  SlurmJobSpec spec;
  spec.name = "smallfix-t-c1";
  spec.workdir = dir->path();
  spec.run_dir = dir->path();
  spec.world_size = 2;
  spec.command = "echo rank=$RANK local=$LOCAL_RANK world=$WORLD_SIZE/$LOCAL_WORLD_SIZE at=$MASTER_ADDR:$MASTER_PORT; "
                 "exit $((RANK + 3)) # a trailing comment";
  {
    std::ofstream out(RankScriptPath(spec.run_dir));
    out << RankScript(spec);
  }
  ProcessOptions process;
  process.argv = {"/bin/sh", RankScriptPath(spec.run_dir)};
  process.env = {{"SLURM_PROCID", "1"},          {"SLURM_LOCALID", "1"},          {"SLURM_NTASKS", "2"},
                 {"SLURM_NTASKS_PER_NODE", "2"}, {"SMALLFIX_MASTER_ADDR", "node7"}, {"SMALLFIX_MASTER_PORT", "29511"}};
  process.time_limit_seconds = 30;
  absl::StatusOr<ProcessResult> ran = RunProcess(process);
  ASSERT_TRUE(ran.ok()) << ran.status();
  EXPECT_EQ(ran->exit_code, 4);  // the command's status, after the failed rank's grace period
  EXPECT_GE(ran->seconds, 4.5);  // rank 0 never wrote its exit status
  EXPECT_EQ(ReadFile(RankOutputPath(spec.run_dir, 1)).value_or(""), "rank=1 local=1 world=2/2 at=node7:29511\n");
  EXPECT_EQ(ReadFile(RankExitPath(spec.run_dir, 1)).value_or(""), "4\n");

  // With every peer's exit status already there, a failed rank does not wait.
  { std::ofstream(RankExitPath(spec.run_dir, 0)) << "3\n"; }
  ran = RunProcess(process);
  ASSERT_TRUE(ran.ok()) << ran.status();
  EXPECT_EQ(ran->exit_code, 4);
  EXPECT_LT(ran->seconds, 3);
}

}  // namespace
}  // namespace smallfix
