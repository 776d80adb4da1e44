#ifndef SMALLFIX_VALIDATORS_SLURM_SLURM_OPTIONS_H_
#define SMALLFIX_VALIDATORS_SLURM_SLURM_OPTIONS_H_

#include <string>
#include <vector>

namespace smallfix {

// How test commands become Slurm jobs (repair --slurm-*, .smallfix.yaml's `slurm:`).
struct SlurmOptions {
  std::string partition;  // "" : the cluster's default partition
  std::string account;
  std::string qos;
  int nodes = 1;                        // the ranks are spread evenly: world size / nodes per node
  int gpus_per_node = 0;                // --gpus-per-node; 0 asks for none
  std::vector<std::string> extra_args;  // more sbatch arguments, passed as given
  // Where each job's script, per-rank output and JUnit reports go; it must be on a file
  // system every node sees. "": a directory inside the worktree under test.
  std::string workdir;
  // Job names are "<job_name_prefix>-<workspace name>" ("smallfix-3fa9c1-c2"): one prefix
  // per repair, so every job of a run can be found (and cancelled) by name.
  std::string job_name_prefix = "smallfix";
  // A job still pending after this long (the cluster is full, or a partition is down) is
  // cancelled and reported as an error with Slurm's reason.
  double start_timeout_seconds = 600;
};

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_SLURM_SLURM_OPTIONS_H_
