#ifndef SMALLFIX_VALIDATORS_SLURM_SLURM_JOB_SCRIPT_H_
#define SMALLFIX_VALIDATORS_SLURM_SLURM_JOB_SCRIPT_H_

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "validators/slurm/slurm_options.h"

namespace smallfix {

// One test command as a Slurm batch job: what the generated scripts need to know.
struct SlurmJobSpec {
  std::string name;     // --job-name
  std::string workdir;  // the worktree the command runs in
  std::string run_dir;  // the job's own files (below); on a file system every node sees
  std::string command;  // a shell command line, run the way the local runner runs it
  bool pytest = false;  // ask each rank for a JUnit report
  int world_size = 1;   // ranks (Slurm tasks), spread evenly over slurm.nodes
  int time_limit_minutes = 1;
  size_t memory_limit_bytes = 0;           // per rank (ulimit -v); 0: none
  std::map<std::string, std::string> env;  // exported before the ranks start
  SlurmOptions slurm;
};

// The files of a job's run directory: the two scripts, Slurm's own output for the job
// (slurmstepd's "CANCELLED ... DUE TO TIME LIMIT" lands there), and per rank its output,
// its exit status (absent when the rank was killed) and its JUnit report (RankJUnitPath).
std::string JobScriptPath(const std::string& run_dir);
std::string RankScriptPath(const std::string& run_dir);
std::string JobOutputPath(const std::string& run_dir);
std::string RankOutputPath(const std::string& run_dir, int rank);
std::string RankExitPath(const std::string& run_dir, int rank);

// Slurm counts time limits in whole minutes (and checks them about every 30 s): a limit of
// `seconds` rounded up, at least 1.
int TimeLimitMinutes(double seconds);

// An error naming the setting when the job cannot be asked for: the ranks do not divide
// evenly over the nodes, or a value would break the script (whitespace in a partition name).
absl::Status CheckJobSpec(const SlurmJobSpec& spec);

// The batch script (job.sh): #SBATCH lines for the resources (nodes, tasks per node, GPUs per
// node, time, partition, account, qos, no requeue), the validation environment, the
// rendezvous (rank 0's host: the job's first node, where the batch script runs; a port free
// there), then one srun step that runs rank.sh once per task and stops the step when a rank
// fails.
std::string JobScript(const SlurmJobSpec& spec);

// The per-rank script (rank.sh): torchrun's environment (torchrun_env.h) from SLURM_PROCID,
// SLURM_LOCALID, SLURM_NTASKS and SLURM_NTASKS_PER_NODE, then the command in the worktree
// with its output, exit status and JUnit report written to the run directory. A failed rank
// waits up to a few seconds for its peers' exit statuses before it exits (and srun stops
// the step), so they can finish and write their reports: the local runner's grace period.
std::string RankScript(const SlurmJobSpec& spec);

// sbatch's argument vector: --parsable, the paths (kept out of the script so that no path
// needs quoting there), the extra arguments, and the script.
std::vector<std::string> SbatchArguments(const SlurmJobSpec& spec);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_SLURM_SLURM_JOB_SCRIPT_H_
