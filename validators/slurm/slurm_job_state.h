#ifndef SMALLFIX_VALIDATORS_SLURM_SLURM_JOB_STATE_H_
#define SMALLFIX_VALIDATORS_SLURM_SLURM_JOB_STATE_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace smallfix {

// A job as Slurm reports it.
struct SlurmJobInfo {
  std::string id;
  std::string state;   // base state, flags dropped: "PENDING", "RUNNING", "TIMEOUT", ...
  std::string reason;  // "None", "Resources", "TimeLimit", "PartitionDown", ...
  int exit_code = 0;   // ExitCode=<code>:<signal>
  int exit_signal = 0;
};

// `scontrol show job -o ID`: one line of Key=Value pairs. An error when JobState is missing.
absl::StatusOr<SlurmJobInfo> ParseScontrolJob(std::string_view text);

// `sacct -n -P -X -o JobID,State,ExitCode,Reason -j ID` (clusters with accounting keep
// jobs there after slurmctld forgot them): the first line; "CANCELLED by 0" is CANCELLED.
absl::StatusOr<SlurmJobInfo> ParseSacctLine(std::string_view text);

// `sbatch --parsable`: "ID" or "ID;CLUSTER".
absl::StatusOr<std::string> ParseSbatchJobId(std::string_view text);

// What a job's state means for a test run.
enum class JobPhase {
  kWaiting,    // not started yet (pending, configuring, requeued)
  kRunning,    // running, or finishing (completing, suspended)
  kEnded,      // the batch script ended: the ranks' results decide
  kTimedOut,   // Slurm's time limit (or deadline) ended it
  kCancelled,  // scancel'led
  kBroken,     // it cannot run or did not run to its end through no fault of the test:
               // preempted, a node failed, a launch failure, or pending for a reason
               // that will not go away (a partition that is down, an invalid account)
};

struct JobVerdict {
  JobPhase phase = JobPhase::kWaiting;
  std::string why;  // for kBroken: Slurm's state and reason in words
};

// The verdict for `job`, from a table of Slurm's job states and pending reasons.
JobVerdict ClassifyJob(const SlurmJobInfo& job);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_SLURM_SLURM_JOB_STATE_H_
