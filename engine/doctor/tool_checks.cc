#include "engine/doctor/tool_checks.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/patterns/catalogue.h"
#include "validators/process/process.h"
#include "validators/warm/warm_server.h"

namespace smallfix::doctor {
namespace {

// The last line of `text` with something on it (a failing command's last word is its reason).
std::string LastLine(std::string_view text) {
  while (!text.empty() && absl::ascii_isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  const size_t newline = text.rfind('\n');
  return std::string(newline == std::string_view::npos ? text : text.substr(newline + 1));
}

// Runs a short command; its first output line, or an error with its last line.
absl::StatusOr<std::string> FirstLine(std::vector<std::string> argv, double seconds = 10) {
  ProcessOptions options;
  options.argv = std::move(argv);
  options.time_limit_seconds = seconds;
  absl::StatusOr<ProcessResult> ran = RunProcess(options);
  if (!ran.ok()) return ran.status();
  if (!ran->ok()) {
    return absl::UnavailableError(ran->timed_out ? absl::StrFormat("no answer in %g s", seconds)
                                                 : LastLine(ran->output));
  }
  return std::string(absl::StripAsciiWhitespace(ran->output.substr(0, ran->output.find('\n'))));
}

// Whether `name` is an executable file in a folder of PATH.
bool OnPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string_view rest = path != nullptr ? path : "";
  while (true) {
    const size_t colon = rest.find(':');
    const std::string dir(rest.substr(0, colon));
    if (!dir.empty() && access(Concat(dir, "/", name).c_str(), X_OK) == 0) return true;
    if (colon == std::string_view::npos) return false;
    rest.remove_prefix(colon + 1);
  }
}

}  // namespace

Check GitCheck() {
  absl::StatusOr<std::string> version = FirstLine({"git", "--version"});
  if (!version.ok()) {
    return Missing("git", Concat("not found on PATH (", version.status().message(), ")"),
                   "apt-get install git (or your system's package)");
  }
  return Ok("git", *version);
}

std::vector<Check> DataChecks() {
  std::vector<Check> checks;
  std::error_code error;
  const std::string templates = DefaultTemplateDir();
  if (std::filesystem::is_directory(templates, error)) {
    checks.push_back(Ok("templates", templates));
  } else {
    checks.push_back(Missing("templates", Concat(templates, " is not a directory"),
                             "reinstall smallfix, or point SMALLFIX_TEMPLATES at its templates/"));
  }
  const std::string warm = DefaultWarmServerScript();
  if (std::filesystem::is_regular_file(warm, error)) {
    checks.push_back(Ok("warm server", warm));
  } else {
    checks.push_back(Warn("warm server", Concat(warm, " is missing; every test run starts cold"),
                          "reinstall smallfix, or point SMALLFIX_WARM_SERVER at warm_server.py"));
  }
  return checks;
}

std::vector<Check> SlurmChecks(const std::string& why) {
  std::string absent;
  for (const char* command : {"sbatch", "srun", "scontrol", "scancel"}) {
    if (!OnPath(command)) absent += Concat(absent.empty() ? "" : ", ", command);
  }
  if (!absent.empty()) {
    return {Missing("slurm", Concat(why, "; not on PATH: ", absent),
                    "install Slurm's client commands (apt-get install slurm-client) and its "
                    "config")};
  }
  std::vector<Check> checks;
  absl::StatusOr<std::string> ping = FirstLine({"scontrol", "ping"}, 20);
  if (ping.ok() && ping->find("UP") != std::string::npos) {
    checks.push_back(Ok("slurm", Concat(*ping, " (", why, ")")));
  } else {
    checks.push_back(
        Missing("slurm",
                Concat("scontrol ping: ", ping.ok() ? *ping : std::string(ping.status().message())),
                "start slurmctld, or point SLURM_CONF at the cluster's slurm.conf"));
  }
  if (!OnPath("sacct")) {
    checks.push_back(Warn("sacct", "not on PATH; a job slurmctld has forgotten cannot be read",
                          "install Slurm's accounting client (sacct)"));
  }
  return checks;
}

}  // namespace smallfix::doctor
