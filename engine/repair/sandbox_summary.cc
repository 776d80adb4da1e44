#include "engine/repair/sandbox_summary.h"

#include "absl/strings/str_join.h"
#include "engine/base/concat.h"

namespace smallfix {
namespace {

std::string Network(bool online) { return online ? "with the network" : "offline (loopback only)"; }

}  // namespace

nlohmann::json SandboxJson(const SandboxSummary& sandbox) {
  return {{"withheld_env", sandbox.withheld_env},
          {"network",
           {{"candidates", sandbox.network.candidates},
            {"reproduction", sandbox.network.reproduction},
            {"slurm", sandbox.slurm}}}};
}

std::string SandboxText(const SandboxSummary& sandbox) {
  std::string out = "sandbox: ";
  out += sandbox.withheld_env.empty()
             ? "no secret-looking variable to withhold"
             : Concat("withheld ", absl::StrJoin(sandbox.withheld_env, ", "),
                      " from test runs (--pass-env NAME lets one through)");
  if (sandbox.slurm) return Concat(out, "; Slurm jobs ran with the nodes' network\n");
  return Concat(out, "; candidates ran ", Network(sandbox.network.candidates),
                ", the reproduction ", Network(sandbox.network.reproduction), "\n");
}

}  // namespace smallfix
