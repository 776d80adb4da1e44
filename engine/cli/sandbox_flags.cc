#include "engine/cli/sandbox_flags.h"

namespace smallfix::cli {

void AddSandboxFlags(CLI::App& command, RepairInputs& flags) {
  command
      .add_option("--pass-env", flags.pass_env,
                  "Let the tests inherit this variable although it looks secret (*TOKEN*, "
                  "*SECRET*, *PASSWORD*, *API_KEY*, cloud credentials are withheld); repeatable")
      ->allow_extra_args(false);
  command.add_flag("--allow-network", flags.allow_network,
                   "Candidates keep the network (default: each test run of a candidate in a "
                   "network namespace with only loopback, where the kernel allows it)");
  command.add_flag("--no-network", flags.no_network,
                   "The reproduction and coverage runs of the unchanged code go offline too");
}

}  // namespace smallfix::cli
