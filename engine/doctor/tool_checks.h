#ifndef SMALLFIX_ENGINE_DOCTOR_TOOL_CHECKS_H_
#define SMALLFIX_ENGINE_DOCTOR_TOOL_CHECKS_H_

#include <string>
#include <vector>

#include "engine/doctor/check.h"

namespace smallfix::doctor {

// git on PATH (candidates are validated in git worktrees; the bot clones and pushes).
Check GitCheck();

// smallfix's own data files: the fix templates and the warm test server's script, where the
// binary looks for them (beside it or above it, or $SMALLFIX_TEMPLATES / $SMALLFIX_WARM_SERVER).
std::vector<Check> DataChecks();

// `--runner slurm`: sbatch, srun, scontrol and scancel on PATH (sacct helps once slurmctld has
// forgotten a job) and a controller that answers `scontrol ping`. `why` says where the runner
// was configured.
std::vector<Check> SlurmChecks(const std::string& why);

}  // namespace smallfix::doctor

#endif  // SMALLFIX_ENGINE_DOCTOR_TOOL_CHECKS_H_
