#ifndef SMALLFIX_ENGINE_CLI_REPAIR_REQUEST_H_
#define SMALLFIX_ENGINE_CLI_REPAIR_REQUEST_H_

#include <atomic>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/repair/llm_attach.h"
#include "engine/repair/pipeline.h"

namespace smallfix::cli {

// The repair flags (smallfix repair's, and what the bot sets the same way).
struct RepairFlags {
  std::string repo, issue, log, symptom, build, runner, templates, sarif, python;
  LlmFlags llm;                    // --llm and the flags that go with it
  std::vector<std::string> sites;  // FILE:LINE
  std::vector<std::string> tests;  // the first is the failing test
  // An issue already in memory (the bot reads it from GitHub); counts as --issue.
  std::string issue_text;
  int world_size = 0, top = 1, jobs = 1, max_candidates = GenerateOptions().max_per_site;
  double timeout = 0;
  bool no_validate = false, apply = false, json = false, quiet = false, coverage = false;
  bool cold = false;     // --cold: every test run in a fresh interpreter, no warm server
  bool one_fix = false;  // --one-fix: the --site lines are all lines of one fix
  // --pass-env NAME: a secret-looking variable the tests may inherit (with .smallfix.yaml's
  // pass_env:); --allow-network: candidates keep the network; --no-network: so does not the
  // reproduction (network_sandbox.h).
  std::vector<std::string> pass_env;
  bool allow_network = false, no_network = false;
  // --runner slurm; -1 / "" / empty: not given (then .smallfix.yaml's slurm: settings, then
  // defaults).
  std::string slurm_partition, slurm_account, slurm_qos, slurm_workdir;
  int slurm_nodes = -1, slurm_gpus_per_node = -1;
  std::vector<std::string> slurm_args;
};

// Builds the request from flags over the repo's .smallfix.yaml over defaults: the one place
// that does, so that `repair` and `bot` validate a repo the same way. Bad input is an error
// that names the flag or file.
absl::StatusOr<RepairRequest> MakeRepairRequest(const RepairFlags& flags,
                                                const std::atomic<bool>* cancel);

}  // namespace smallfix::cli

#endif  // SMALLFIX_ENGINE_CLI_REPAIR_REQUEST_H_
