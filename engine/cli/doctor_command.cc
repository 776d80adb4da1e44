// smallfix doctor: what a repair needs on this machine, one line per check, and how to get
// what is missing. Exit 1 when something a repair needs is missing.
#include <iostream>
#include <memory>

#include "absl/strings/str_format.h"
#include "engine/cli/commands.h"
#include "engine/doctor/doctor.h"

namespace smallfix::cli {
namespace {

const char* Label(doctor::Check::State state) {
  switch (state) {
    case doctor::Check::State::kOk:
      return "ok";
    case doctor::Check::State::kMissing:
      return "MISSING";
    case doctor::Check::State::kWarn:
      return "warn";
    case doctor::Check::State::kSkipped:
      return "-";
  }
  return "?";
}

int Run(const doctor::DoctorOptions& options) {
  absl::StatusOr<std::vector<doctor::Check>> checks = doctor::RunChecks(options);
  if (!checks.ok()) {
    std::cerr << "smallfix: " << checks.status().message() << "\n";
    return ExitStatusFor(checks.status());
  }
  std::cout << "smallfix doctor: what a repair of " << options.repo << " needs on this machine\n";
  std::string missing;
  for (const doctor::Check& check : *checks) {
    std::cout << absl::StrFormat("  %-8s %-17s %s\n", Label(check.state), check.name, check.detail);
    if (!check.fix.empty())
      std::cout << absl::StrFormat("  %-8s %-17s fix: %s\n", "", "", check.fix);
    if (check.state == doctor::Check::State::kMissing)
      missing += (missing.empty() ? "" : ", ") + check.name;
  }
  if (missing.empty()) {
    std::cout << "Everything a repair needs is here.\n";
    return kExitFound;
  }
  std::cout << "Missing: " << missing << ". A repair cannot validate patches until it is there.\n";
  return kExitNone;
}

}  // namespace

void AddDoctorCommand(CLI::App& app, int* exit_status) {
  auto o = std::make_shared<doctor::DoctorOptions>();
  CLI::App* cmd = app.add_subcommand(
      "doctor", "Check what a repair needs on this machine and say how to get what is missing");
  cmd->add_option("--repo", o->repo, "The repository to repair (its .smallfix.yaml; default .)");
  cmd->add_option(
      "--python", o->python,
      "Interpreter for tests (default: .smallfix.yaml, else the first python3 on PATH)");
  cmd->add_option("--runner", o->runner, "local | torchrun | slurm (default: .smallfix.yaml's)");
  cmd->add_option("--world-size", o->world_size, "Ranks (torch.distributed is checked above 1)");
  cmd->add_option("--llm", o->llm_url, "Also check this OpenAI-compatible server");
  cmd->add_option("--llm-model", o->llm_model, "The model --llm must list");
  cmd->callback([o, exit_status] { *exit_status = Run(*o); });
}

}  // namespace smallfix::cli
