#include "validators/slurm/slurm_commands.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/base/concat.h"
#include "validators/process/process.h"

namespace smallfix {
namespace {

// A Slurm client waits this long for the controller before smallfix gives up on it.
constexpr double kCommandSeconds = 60;

absl::StatusOr<ProcessResult> RunSlurm(const std::vector<std::string>& argv,
                                       const std::string& cwd = "",
                                       const std::vector<std::string>& pass_env = {}) {
  ProcessOptions process;
  process.argv = argv;
  process.cwd = cwd;
  process.pass_env = pass_env;
  process.time_limit_seconds = kCommandSeconds;
  process.output_limit_bytes = size_t{64} << 10;
  absl::StatusOr<ProcessResult> ran = RunProcess(process);
  if (!ran.ok())
    return absl::UnavailableError(
        Concat("slurm: cannot run ", argv.front(), ": ", ran.status().message()));
  if (ran->timed_out) {
    return absl::UnavailableError(
        Concat("slurm: ", argv.front(), " got no answer from slurmctld within 60 s"));
  }
  return ran;
}

// "sbatch: error: invalid partition specified: x\nsbatch: error: Batch job submission
// failed: ..." -> "invalid partition specified: x; Batch job submission failed: ...".
std::string ErrorLines(const std::string& output) {
  std::vector<std::string> lines;
  for (const std::string& line :
       std::vector<std::string>(absl::StrSplit(output, '\n', absl::SkipWhitespace()))) {
    const size_t error = line.find("error: ");
    lines.push_back(error == std::string::npos ? line : line.substr(error + 7));
  }
  return absl::StrJoin(lines, "; ");
}

}  // namespace

bool SlurmAvailable() {
  const char* path = std::getenv("PATH");
  const std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  for (const std::string& dir :
       std::vector<std::string>(absl::StrSplit(dirs, ':', absl::SkipEmpty()))) {
    const std::string candidate = Concat(dir, "/sbatch");
    if (access(candidate.c_str(), X_OK) == 0) return true;
  }
  return false;
}

absl::StatusOr<std::string> SubmitJob(const std::vector<std::string>& argv, const std::string& cwd,
                                      const std::vector<std::string>& pass_env) {
  absl::StatusOr<ProcessResult> ran = RunSlurm(argv, cwd, pass_env);
  if (!ran.ok()) return ran.status();
  if (ran->exit_code != 0) {
    const std::string why = ErrorLines(ran->output);
    if (absl::StrContains(why, "Could not establish a configuration source")) {
      return absl::FailedPreconditionError(
          "slurm: sbatch finds no cluster configuration: set SLURM_CONF (or install "
          "/etc/slurm/slurm.conf); for "
          "the local test cluster: eval \"$(scripts/slurm-local.sh env)\"");
    }
    // Connection trouble is the cluster's, everything else is about the request.
    if (absl::StrContains(why, "Unable to contact slurm controller") ||
        absl::StrContains(why, "Connection refused") ||
        absl::StrContains(why, "Socket timed out")) {
      return absl::UnavailableError(Concat("slurm: sbatch cannot reach the controller: ", why));
    }
    return absl::InvalidArgumentError(Concat("slurm: sbatch refused the job: ", why));
  }
  // --parsable prints the id on the last line; warnings may come before it.
  std::string output = ran->output;
  absl::StripTrailingAsciiWhitespace(&output);
  const size_t newline = output.rfind('\n');
  return ParseSbatchJobId(newline == std::string::npos ? output : output.substr(newline + 1));
}

absl::StatusOr<SlurmJobInfo> QueryJob(const std::string& id) {
  absl::StatusOr<ProcessResult> shown = RunSlurm({"scontrol", "show", "job", "-o", id});
  if (!shown.ok()) return shown.status();
  if (shown->exit_code == 0) return ParseScontrolJob(shown->output);
  if (!absl::StrContains(shown->output, "Invalid job id")) {
    return absl::UnavailableError(
        Concat("slurm: scontrol show job ", id, ": ", ErrorLines(shown->output)));
  }
  // slurmctld forgets a job MinJobAge after it ended; accounting (when there is) remembers.
  absl::StatusOr<ProcessResult> accounted =
      RunSlurm({"sacct", "-n", "-P", "-X", "-o", "JobID,State,ExitCode,Reason", "-j", id});
  if (accounted.ok() && accounted->exit_code == 0 &&
      !absl::StripAsciiWhitespace(accounted->output).empty()) {
    return ParseSacctLine(accounted->output);
  }
  return absl::NotFoundError(Concat("slurm: job ", id, " is unknown to scontrol and to sacct"));
}

absl::Status CancelJob(const std::string& id) {
  absl::StatusOr<ProcessResult> ran = RunSlurm({"scancel", id});
  if (!ran.ok()) return ran.status();
  if (ran->exit_code != 0 && !absl::StrContains(ran->output, "already completing or completed") &&
      !absl::StrContains(ran->output, "Invalid job id")) {
    return absl::UnavailableError(Concat("slurm: scancel ", id, ": ", ErrorLines(ran->output)));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> JobsNamed(const std::string& prefix) {
  absl::StatusOr<ProcessResult> ran = RunSlurm({"squeue", "-h", "--me", "-o", "%i %j"});
  if (!ran.ok()) return ran.status();
  if (ran->exit_code != 0)
    return absl::UnavailableError(Concat("slurm: squeue: ", ErrorLines(ran->output)));
  std::vector<std::string> ids;
  for (const std::string& line :
       std::vector<std::string>(absl::StrSplit(ran->output, '\n', absl::SkipWhitespace()))) {
    std::vector<std::string> fields = absl::StrSplit(line, absl::MaxSplits(' ', 1));
    if (fields.size() == 2 && absl::StartsWith(fields[1], prefix)) ids.push_back(fields[0]);
  }
  return ids;
}

}  // namespace smallfix
