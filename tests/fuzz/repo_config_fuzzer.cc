// libFuzzer target for .smallfix.yaml: any bytes as the file either load as a config whose
// numbers are in range or give an error naming the file.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "engine/repair/repo_config.h"
#include "tests/fuzz/fuzz_scratch.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace smallfix;
  const std::string path = WriteFuzzFile(".smallfix.yaml", data, size);
  absl::StatusOr<RepoConfig> config = LoadRepoConfig(FuzzScratchDir());
  if (!config.ok()) {
    if (std::string(config.status().message()).find(".smallfix.yaml") == std::string::npos)
      abort();
    return 0;
  }
  if (config->world_size && *config->world_size < 1) abort();
  if (config->timeout && !(*config->timeout > 0)) abort();
  if (config->memory_limit_mb && *config->memory_limit_mb < 1) abort();
  if (config->slurm.nodes && *config->slurm.nodes < 1) abort();
  return 0;
}

#include "tests/fuzz/fuzz_main.h"
