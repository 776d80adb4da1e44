#include "validators/slurm/slurm_job_state.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

using ::testing::HasSubstr;

// Lines as Slurm 22.05's `scontrol show job -o` prints them (shortened).
constexpr char kRunning[] =
    "JobId=3 JobName=wrap UserId=root(0) GroupId=root(0) Priority=4294901757 Nice=0 Account=(null) QOS=(null) "
    "JobState=RUNNING Reason=None Dependency=(null) Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0 "
    "RunTime=00:00:02 TimeLimit=00:01:00 Partition=debug NodeList=vm BatchHost=vm NumNodes=1\n";
constexpr char kTimedOut[] =
    "JobId=3 JobName=wrap JobState=TIMEOUT Reason=TimeLimit Dependency=(null) ExitCode=0:15 RunTime=00:01:24\n";

SlurmJobInfo Job(std::string state, std::string reason, int exit_code = 0) {
  SlurmJobInfo job;
  job.id = "7";
  job.state = std::move(state);
  job.reason = std::move(reason);
  job.exit_code = exit_code;
  return job;
}

TEST(ParseScontrolJobTest, ReadsStateReasonAndExitCode) {
  absl::StatusOr<SlurmJobInfo> running = ParseScontrolJob(kRunning);
  ASSERT_TRUE(running.ok()) << running.status();
  EXPECT_EQ(running->id, "3");
  EXPECT_EQ(running->state, "RUNNING");
  EXPECT_EQ(running->reason, "None");
  absl::StatusOr<SlurmJobInfo> timed_out = ParseScontrolJob(kTimedOut);
  ASSERT_TRUE(timed_out.ok());
  EXPECT_EQ(timed_out->state, "TIMEOUT");
  EXPECT_EQ(timed_out->reason, "TimeLimit");
  EXPECT_EQ(timed_out->exit_code, 0);
  EXPECT_EQ(timed_out->exit_signal, 15);
}

TEST(ParseScontrolJobTest, DropsStateFlags) {
  absl::StatusOr<SlurmJobInfo> job = ParseScontrolJob("JobId=9 JobState=CANCELLED+COMPLETING Reason=None ExitCode=0:0");
  ASSERT_TRUE(job.ok());
  EXPECT_EQ(job->state, "CANCELLED");
}

TEST(ParseScontrolJobTest, AnAnswerWithoutAStateIsAnError) {
  EXPECT_FALSE(ParseScontrolJob("slurm_load_jobs error: Invalid job id specified").ok());
  EXPECT_FALSE(ParseScontrolJob("JobId=9 JobState=FAILED ExitCode=x").ok());
}

TEST(ParseSacctLineTest, ReadsTheFirstLine) {
  absl::StatusOr<SlurmJobInfo> job = ParseSacctLine("41|CANCELLED by 0|0:0|None\n41.batch|CANCELLED|0:15|\n");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(job->id, "41");
  EXPECT_EQ(job->state, "CANCELLED");
  EXPECT_FALSE(ParseSacctLine("").ok());
}

TEST(ParseSbatchJobIdTest, TakesTheIdWithOrWithoutACluster) {
  EXPECT_EQ(ParseSbatchJobId("123\n").value_or(""), "123");
  EXPECT_EQ(ParseSbatchJobId("123;big\n").value_or(""), "123");
  EXPECT_FALSE(ParseSbatchJobId("").ok());
  EXPECT_FALSE(ParseSbatchJobId("Submitted batch job 5").ok());
}

TEST(ClassifyJobTest, WaitingAndRunningStates) {
  EXPECT_EQ(ClassifyJob(Job("PENDING", "Resources")).phase, JobPhase::kWaiting);
  EXPECT_EQ(ClassifyJob(Job("PENDING", "Priority")).phase, JobPhase::kWaiting);
  EXPECT_EQ(ClassifyJob(Job("CONFIGURING", "None")).phase, JobPhase::kWaiting);
  EXPECT_EQ(ClassifyJob(Job("RUNNING", "None")).phase, JobPhase::kRunning);
  EXPECT_EQ(ClassifyJob(Job("COMPLETING", "None")).phase, JobPhase::kRunning);
}

TEST(ClassifyJobTest, EndedJobsAreScoredByTheirRanks) {
  EXPECT_EQ(ClassifyJob(Job("COMPLETED", "None")).phase, JobPhase::kEnded);
  EXPECT_EQ(ClassifyJob(Job("FAILED", "NonZeroExitCode", 1)).phase, JobPhase::kEnded);
  EXPECT_EQ(ClassifyJob(Job("FAILED", "RaisedSignal:9_Killed")).phase, JobPhase::kEnded);
  EXPECT_EQ(ClassifyJob(Job("TIMEOUT", "TimeLimit")).phase, JobPhase::kTimedOut);
  EXPECT_EQ(ClassifyJob(Job("DEADLINE", "None")).phase, JobPhase::kTimedOut);
  EXPECT_EQ(ClassifyJob(Job("CANCELLED", "None")).phase, JobPhase::kCancelled);
}

TEST(ClassifyJobTest, TroubleThatIsNotTheTestsIsBrokenWithSlurmsReason) {
  JobVerdict preempted = ClassifyJob(Job("PREEMPTED", "None"));
  EXPECT_EQ(preempted.phase, JobPhase::kBroken);
  EXPECT_EQ(preempted.why, "preempted");
  EXPECT_EQ(ClassifyJob(Job("NODE_FAIL", "NodeDown")).why, "a node failed (NodeDown)");
  JobVerdict launch = ClassifyJob(Job("FAILED", "JobLaunchFailure", 1));
  EXPECT_EQ(launch.phase, JobPhase::kBroken);
  EXPECT_THAT(launch.why, HasSubstr("JobLaunchFailure"));
  EXPECT_EQ(ClassifyJob(Job("SOMETHING_NEW", "None")).phase, JobPhase::kBroken);
}

TEST(ClassifyJobTest, PendingForAReasonThatWillNotPassIsBroken) {
  JobVerdict down = ClassifyJob(Job("PENDING", "PartitionDown"));
  EXPECT_EQ(down.phase, JobPhase::kBroken);
  EXPECT_EQ(down.why, "cannot start: PartitionDown (PENDING)");
  EXPECT_EQ(ClassifyJob(Job("PENDING", "QOSMaxWallDurationPerJobLimit")).phase, JobPhase::kBroken);
  EXPECT_EQ(ClassifyJob(Job("PENDING", "InvalidAccount")).phase, JobPhase::kBroken);
}

}  // namespace
}  // namespace smallfix
