#ifndef SMALLFIX_ENGINE_REPAIR_SANDBOX_SUMMARY_H_
#define SMALLFIX_ENGINE_REPAIR_SANDBOX_SUMMARY_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "validators/process/network_sandbox.h"

namespace smallfix {

// What the processes that ran project code in a repair were kept from (docs/threat-model.md):
// the names of the variables withheld from them (child_env.h; never their values) and which
// runs had the network.
struct SandboxSummary {
  std::vector<std::string> withheld_env;
  NetworkPolicy network;
  bool slurm = false;  // Slurm jobs run on the cluster's nodes, with their network
};

// {"withheld_env": [...], "network": {"candidates": false, "reproduction": true, "slurm": false}}
nlohmann::json SandboxJson(const SandboxSummary& sandbox);

// One line for the text report, "sandbox: ...".
std::string SandboxText(const SandboxSummary& sandbox);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_SANDBOX_SUMMARY_H_
