#ifndef SMALLFIX_VALIDATORS_SLURM_SLURM_TEST_RUNNER_H_
#define SMALLFIX_VALIDATORS_SLURM_SLURM_TEST_RUNNER_H_

#include <string>

#include "absl/status/statusor.h"
#include "validators/test_runner.h"

namespace smallfix {

// Runs each test command as a Slurm batch job of `world_size` tasks (slurm_job_script.h):
// submitted with sbatch, watched with scontrol (sacct once slurmctld forgot the job) at a
// backing-off interval, scancel'led when `options.cancel` becomes true (Ctrl-C, or a better
// candidate is already plausible) and on every way out of Run, so no job outlives it.
//
// Outcomes: a job that ran to its end is scored from its ranks' exit statuses and JUnit
// reports like any run (rank_outcome.h); one ended by Slurm's time limit is timed_out (the
// limit is time_limit_seconds rounded up to whole minutes); one cancelled on request is
// cancelled. A job that cannot run or did not run to its end through no fault of the test
// (sbatch refused it, it stayed pending for a reason that will not pass or longer than
// slurm.start_timeout_seconds, it was preempted, a node failed, it ended before any rank
// started) is an error that names the job and Slurm's reason: never a test failure.
class SlurmTestRunner : public TestRunner {
 public:
  explicit SlurmTestRunner(RunnerOptions options) : options_(std::move(options)) {}
  absl::StatusOr<TestRun> Run(const std::string& dir, const std::string& command) const override;

 private:
  RunnerOptions options_;
};

// Cancels every job of this user whose name starts with `prefix` + "-" (one repair's jobs:
// SlurmOptions::job_name_prefix); how many. For the end of an interrupted run.
absl::StatusOr<int> CancelJobsOfRun(const std::string& prefix);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_SLURM_SLURM_TEST_RUNNER_H_
