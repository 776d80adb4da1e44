#ifndef SMALLFIX_ENGINE_REPAIR_REPO_CONFIG_H_
#define SMALLFIX_ENGINE_REPAIR_REPO_CONFIG_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace smallfix {

// A repo's .smallfix.yaml: how to build and test it. Every key is optional; flags override.
//
//   build: make -C csrc            # run before the tests
//   test: python -m pytest -x tests/test_zero.py::test_step   # the failing test
//   tests: [python -m pytest -q tests]                         # must keep passing
//   runner: torchrun               # local | torchrun | slurm
//   world_size: 2
//   slurm:                         # with runner: slurm (repair --slurm-* flags override)
//     partition: gpu
//     account: ml-team
//     qos: debug
//     nodes: 1
//     gpus_per_node: 2
//     args: [--constraint=a100]    # more sbatch arguments
//     workdir: /shared/scratch     # job files and JUnit reports; default inside the worktree
//     start_timeout: 600           # seconds a job may stay pending
//   interpreter: .venv/bin/python  # default: the first python3 on PATH
//   timeout: 120                   # seconds per stage
//   memory_limit_mb: 8192          # address-space limit per process
//   pass_env: [HF_TOKEN]           # secret-looking variables the tests may inherit (--pass-env)
struct RepoConfig {
  std::optional<std::string> build;
  std::optional<std::string> test;
  std::vector<std::string> tests;
  std::optional<std::string> runner;
  std::optional<int> world_size;
  std::optional<std::string> interpreter;
  std::optional<double> timeout;
  std::optional<size_t> memory_limit_mb;
  std::vector<std::string> pass_env;
  struct Slurm {
    std::optional<std::string> partition, account, qos, workdir;
    std::optional<int> nodes, gpus_per_node;
    std::optional<double> start_timeout;
    std::vector<std::string> args;
  } slurm;
};

// Reads DIR/.smallfix.yaml; an absent file is an empty config, a bad one an error naming
// the file, line and key.
absl::StatusOr<RepoConfig> LoadRepoConfig(const std::string& repo);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_REPO_CONFIG_H_
