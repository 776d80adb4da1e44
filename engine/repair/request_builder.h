#ifndef SMALLFIX_ENGINE_REPAIR_REQUEST_BUILDER_H_
#define SMALLFIX_ENGINE_REPAIR_REQUEST_BUILDER_H_

#include <atomic>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/repair/pipeline.h"

namespace smallfix {

// What a caller asks a repair for, before the repo's .smallfix.yaml and the defaults fill the
// rest: `smallfix repair`'s flags, and what the bot and the benchmarks set the same way.
struct RepairInputs {
  std::string repo;
  // The failure: exactly one of a file (`issue` or `log`), text already read (`failure_text`,
  // of `failure_kind`: the bot's issue, a benchmark's run output) or `sites` (FILE:LINE).
  std::string issue, log;
  std::string failure_text;
  FailureKind failure_kind = FailureKind::kIssue;
  std::vector<std::string> sites;
  std::string symptom;             // --symptom, with sites
  bool one_fix = false;            // the sites are all lines of one fix
  bool coverage = false;           // also rank lines by coverage before localizing
  std::vector<std::string> tests;  // the first is the failing test; "" fields: not given
  std::string build, runner, python, templates;
  int world_size = 0, top = 1, jobs = 1, max_candidates = GenerateOptions().max_per_site;
  int weak_lookahead = kDefaultWeakLookahead;
  double timeout = 0;
  bool no_validate = false, cold = false, apply = false;
  LlmFlags llm;             // --llm and the flags that go with it
  std::string llm_failure;  // what the model is shown ("": the failure text or the symptom)
  // --pass-env NAME: a secret-looking variable the tests may inherit (with .smallfix.yaml's
  // pass_env:); --allow-network: candidates keep the network; --no-network: so does not the
  // reproduction (validators/process/network_sandbox.h).
  std::vector<std::string> pass_env;
  bool allow_network = false, no_network = false;
  // --runner slurm; -1 / "" / empty: not given (then .smallfix.yaml's slurm: settings, then
  // defaults). `slurm_job_prefix` "": a random smallfix-<6 hex digits>.
  std::string slurm_partition, slurm_account, slurm_qos, slurm_workdir, slurm_job_prefix;
  int slurm_nodes = -1, slurm_gpus_per_node = -1;
  std::vector<std::string> slurm_args;
  // Read the repo's .smallfix.yaml (the benchmarks' trees are not the user's: false).
  bool read_repo_config = true;
};

// The request from `inputs` over the repo's .smallfix.yaml over defaults: the one place that
// builds one, so that `repair`, `bot`, `bench`, `bench --realfix` and `bench --realbugs`
// validate a repo the same way. Bad input is an error that names the flag or file.
absl::StatusOr<RepairRequest> BuildRepairRequest(const RepairInputs& inputs,
                                                 const std::atomic<bool>* cancel);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_REQUEST_BUILDER_H_
