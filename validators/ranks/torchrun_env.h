#ifndef SMALLFIX_VALIDATORS_RANKS_TORCHRUN_ENV_H_
#define SMALLFIX_VALIDATORS_RANKS_TORCHRUN_ENV_H_

#include <map>
#include <string>

namespace smallfix {

// Where one rank sits in a run. Values are text so that the same contract serves a runner
// that knows the numbers (the local torchrun-style runner) and a job script that reads them
// from the scheduler at run time ("${SLURM_PROCID}").
struct RankPlace {
  std::string rank;              // global rank
  std::string local_rank;        // rank on its host
  std::string world_size;        // ranks in all
  std::string local_world_size;  // ranks on its host
  std::string master_addr;       // rank 0's host
  std::string master_port;       // free on that host
};

// torchrun's environment contract for one rank: RANK, LOCAL_RANK, WORLD_SIZE,
// LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT and TORCHELASTIC_RUN_ID, the variables
// torch.distributed's env:// initialisation and code written for torchrun read.
std::map<std::string, std::string> TorchrunEnvironment(const RankPlace& place);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_RANKS_TORCHRUN_ENV_H_
