#ifndef SMALLFIX_ENGINE_CLI_COMMANDS_H_
#define SMALLFIX_ENGINE_CLI_COMMANDS_H_

#include <CLI/CLI.hpp>

#include "absl/status/status.h"

namespace smallfix::cli {

// Exit statuses of the CLI contract (docs/design.md, "Exit statuses").
inline constexpr int kExitFound = 0;     // a plausible patch (or the asked-for result)
inline constexpr int kExitNone = 1;      // nothing found
inline constexpr int kExitBadInput = 2;  // bad input: a message on stderr says what
inline constexpr int kExitInternal = 3;  // smallfix itself failed (a socket, a bug)

// kExitInternal for the errors that are smallfix's own (internal, unknown, data loss,
// resources), kExitBadInput for the rest: those name something the user gave.
inline int ExitStatusFor(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kInternal:
    case absl::StatusCode::kUnknown:
    case absl::StatusCode::kDataLoss:
    case absl::StatusCode::kResourceExhausted:
      return kExitInternal;
    default:
      return kExitBadInput;
  }
}

// Each Add*Command adds one subcommand to `app`. When that subcommand is chosen, its
// callback runs the command and stores the process exit status in `*exit_status`.
void AddLocalizeCommand(CLI::App& app, int* exit_status);
void AddTemplatesCommand(CLI::App& app, int* exit_status);
void AddRepairCommand(CLI::App& app, int* exit_status);
void AddBenchCommand(CLI::App& app, int* exit_status);
void AddMineCommand(CLI::App& app, int* exit_status);
void AddBotCommand(CLI::App& app, int* exit_status);
void AddScanCommand(CLI::App& app, int* exit_status);
void AddDoctorCommand(CLI::App& app, int* exit_status);

}  // namespace smallfix::cli

#endif  // SMALLFIX_ENGINE_CLI_COMMANDS_H_
