#ifndef SMALLFIX_ENGINE_CLI_COMMANDS_H_
#define SMALLFIX_ENGINE_CLI_COMMANDS_H_

#include <CLI/CLI.hpp>

namespace smallfix::cli {

// Exit statuses of the CLI contract (DESIGN.md).
inline constexpr int kExitFound = 0;     // a plausible patch (or the asked-for result)
inline constexpr int kExitNone = 1;      // nothing found
inline constexpr int kExitBadInput = 2;  // bad input: a message on stderr says what

// Each Add*Command adds one subcommand to `app`. When that subcommand is chosen, its
// callback runs the command and stores the process exit status in `*exit_status`.
// A command file that is not built yet is simply not listed in main.cc.
void AddLocalizeCommand(CLI::App& app, int* exit_status);
void AddTemplatesCommand(CLI::App& app, int* exit_status);
void AddRepairCommand(CLI::App& app, int* exit_status);
void AddScanCommand(CLI::App& app, int* exit_status);
void AddBenchCommand(CLI::App& app, int* exit_status);
void AddBotCommand(CLI::App& app, int* exit_status);
void AddMineCommand(CLI::App& app, int* exit_status);

}  // namespace smallfix::cli

#endif  // SMALLFIX_ENGINE_CLI_COMMANDS_H_
