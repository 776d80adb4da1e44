// smallfix: repairs the small bugs that break distributed LLM training and inference code.
#include <CLI/CLI.hpp>
#include <iostream>

#include "engine/cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"smallfix: template-based repair of small bugs in distributed training code"};
  app.set_version_flag("--version", std::string("smallfix ") + SMALLFIX_VERSION);
  app.require_subcommand(1);
  int exit_status = smallfix::cli::kExitFound;
  // Subcommands are added here as they are built (see commands.h).
  smallfix::cli::AddLocalizeCommand(app, &exit_status);
  smallfix::cli::AddRepairCommand(app, &exit_status);
  smallfix::cli::AddTemplatesCommand(app, &exit_status);
  smallfix::cli::AddBenchCommand(app, &exit_status);
  smallfix::cli::AddMineCommand(app, &exit_status);
  smallfix::cli::AddBotCommand(app, &exit_status);
  smallfix::cli::AddScanCommand(app, &exit_status);
  smallfix::cli::AddDoctorCommand(app, &exit_status);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // CLI11 exits 0 for --help/--version and non-zero for bad flags; the contract says 2.
    const int rc = app.exit(error);
    return rc == 0 ? 0 : smallfix::cli::kExitBadInput;
  }
  return exit_status;
}
