#ifndef SMALLFIX_ENGINE_CLI_SANDBOX_FLAGS_H_
#define SMALLFIX_ENGINE_CLI_SANDBOX_FLAGS_H_

#include <CLI/CLI.hpp>

#include "engine/repair/request_builder.h"

namespace smallfix::cli {

// Adds --pass-env NAME (repeatable), --allow-network and --no-network to `command` (repair,
// bot), filling `flags`; BuildRepairRequest checks them.
void AddSandboxFlags(CLI::App& command, RepairInputs& flags);

}  // namespace smallfix::cli

#endif  // SMALLFIX_ENGINE_CLI_SANDBOX_FLAGS_H_
