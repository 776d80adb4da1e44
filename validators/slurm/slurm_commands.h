#ifndef SMALLFIX_VALIDATORS_SLURM_SLURM_COMMANDS_H_
#define SMALLFIX_VALIDATORS_SLURM_SLURM_COMMANDS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "validators/slurm/slurm_job_state.h"

namespace smallfix {

// Slurm's command-line tools (sbatch, scontrol, sacct, squeue, scancel), each run the way
// smallfix runs every process: its own process group and a time limit, so a slurmctld that
// does not answer cannot hang a repair. They talk to the cluster that SLURM_CONF (or
// /etc/slurm/slurm.conf) names.

// Whether sbatch can be found on PATH.
bool SlurmAvailable();

// Submits with `argv` (SbatchArguments) from `cwd`; the job id. sbatch hands its environment
// to the job (--export=ALL unless the cluster says otherwise), so it gets smallfix's without
// the secrets (child_env.h), `pass_env` let through. A refusal (an invalid partition, account
// or qos, a request no node can meet) is InvalidArgument with sbatch's own words; a controller
// that cannot be reached is Unavailable.
absl::StatusOr<std::string> SubmitJob(const std::vector<std::string>& argv, const std::string& cwd,
                                      const std::vector<std::string>& pass_env = {});

// The job's state from scontrol; when slurmctld has already forgotten it, from sacct (where
// accounting is on). NotFound when neither knows it.
absl::StatusOr<SlurmJobInfo> QueryJob(const std::string& id);

// scancel ID (a job that has already ended is not an error).
absl::Status CancelJob(const std::string& id);

// The ids of this user's jobs whose names start with `prefix`, from squeue.
absl::StatusOr<std::vector<std::string>> JobsNamed(const std::string& prefix);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_SLURM_SLURM_COMMANDS_H_
