#include "validators/ranks/torchrun_env.h"

namespace smallfix {

std::map<std::string, std::string> TorchrunEnvironment(const RankPlace& place) {
  return {
      {"RANK", place.rank},
      {"LOCAL_RANK", place.local_rank},
      {"WORLD_SIZE", place.world_size},
      {"LOCAL_WORLD_SIZE", place.local_world_size},
      {"MASTER_ADDR", place.master_addr},
      {"MASTER_PORT", place.master_port},
      // Code that checks whether it runs under an elastic launcher looks for this one.
      {"TORCHELASTIC_RUN_ID", "smallfix"},
  };
}

}  // namespace smallfix
