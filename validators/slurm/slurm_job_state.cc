#include "validators/slurm/slurm_job_state.h"

#include <array>
#include <vector>

#include "absl/strings/numbers.h"
#include "engine/base/concat.h"

namespace smallfix {
namespace {

struct StateRule {
  std::string_view state;
  JobPhase phase;
  std::string_view words;  // for kBroken
};

// Slurm's job states (squeue(1) "JOB STATE CODES").
constexpr std::array kStates = {
    StateRule{"PENDING", JobPhase::kWaiting, ""},
    StateRule{"CONFIGURING", JobPhase::kWaiting, ""},
    StateRule{"REQUEUED", JobPhase::kWaiting, ""},
    StateRule{"REQUEUE_FED", JobPhase::kWaiting, ""},
    StateRule{"RESV_DEL_HOLD", JobPhase::kWaiting, ""},
    StateRule{"RUNNING", JobPhase::kRunning, ""},
    StateRule{"COMPLETING", JobPhase::kRunning, ""},
    StateRule{"SUSPENDED", JobPhase::kRunning, ""},
    StateRule{"STOPPED", JobPhase::kRunning, ""},
    StateRule{"SIGNALING", JobPhase::kRunning, ""},
    StateRule{"STAGE_OUT", JobPhase::kRunning, ""},
    StateRule{"RESIZING", JobPhase::kRunning, ""},
    StateRule{"COMPLETED", JobPhase::kEnded, ""},
    StateRule{"FAILED", JobPhase::kEnded, ""},  // see kLaunchFailures
    // The test itself used more memory than the job had: like a rank killed by the
    // memory limit under the local runner, the candidate's run failed.
    StateRule{"OUT_OF_MEMORY", JobPhase::kEnded, ""},
    StateRule{"TIMEOUT", JobPhase::kTimedOut, ""},
    StateRule{"DEADLINE", JobPhase::kTimedOut, ""},
    StateRule{"CANCELLED", JobPhase::kCancelled, ""},
    StateRule{"PREEMPTED", JobPhase::kBroken, "preempted"},
    StateRule{"NODE_FAIL", JobPhase::kBroken, "a node failed"},
    StateRule{"BOOT_FAIL", JobPhase::kBroken, "a node failed to boot"},
    StateRule{"REQUEUE_HOLD", JobPhase::kBroken, "requeued and held"},
    StateRule{"REVOKED", JobPhase::kBroken, "revoked (run on another cluster)"},
    StateRule{"SPECIAL_EXIT", JobPhase::kBroken, "held after a special exit"},
};

// Pending reasons that do not go away by waiting (squeue(1) "JOB REASON CODES"). Others
// (Resources, Priority, Dependency, ReqNodeNotAvail, ...) may; a pending job is still
// given up after SlurmOptions::start_timeout_seconds.
constexpr std::array<std::string_view, 13> kHopelessReasons = {
    "PartitionDown",
    "PartitionInactive",
    "PartitionNodeLimit",
    "PartitionTimeLimit",
    "BadConstraints",
    "InvalidAccount",
    "InvalidQOS",
    "AccountNotAllowed",
    "QOSNotAllowed",
    "JobHeldAdmin",
    "JobHeldUser",
    "DependencyNeverSatisfied",
    "launch_failed_requeued_held",
};

// A FAILED job whose reason is not the batch script's exit status failed to launch: a
// broken node, prolog, or working directory, not the test.
bool IsLaunchFailure(const SlurmJobInfo& job) {
  return job.reason != "NonZeroExitCode" && job.reason != "None" && !job.reason.empty() &&
         job.reason.rfind("RaisedSignal", 0) != 0;
}

bool IsHopeless(std::string_view reason) {
  for (std::string_view hopeless : kHopelessReasons) {
    if (reason == hopeless) return true;
  }
  // Per-job QOS and association limits (QOSMaxWallDurationPerJobLimit, ...) never pass.
  return reason.find("PerJob") != std::string_view::npos;
}

// `text` cut at every `separator`; empty pieces kept.
std::vector<std::string> Split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  size_t begin = 0;
  for (;;) {
    const size_t end = text.find(separator, begin);
    parts.emplace_back(
        text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin));
    if (end == std::string_view::npos) return parts;
    begin = end + 1;
  }
}

// "RUNNING+COMPLETING" / "CANCELLED by 0" -> "RUNNING" / "CANCELLED".
std::string BaseState(std::string_view state) {
  const size_t end = state.find_first_of("+ ");
  return std::string(state.substr(0, end));
}

absl::Status ParseExitCode(std::string_view text, SlurmJobInfo& job) {
  std::vector<std::string> parts = Split(text, ':');
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &job.exit_code) ||
      !absl::SimpleAtoi(parts[1], &job.exit_signal)) {
    return absl::InvalidArgumentError(Concat("slurm: cannot read ExitCode '", text, "'"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<SlurmJobInfo> ParseScontrolJob(std::string_view text) {
  SlurmJobInfo job;
  bool has_state = false;
  // Values hold no spaces except a few free-text fields (Comment=, Command=); those come
  // after the ones read here or are not read at all, so splitting on spaces is enough.
  std::string fields(text);
  for (char& c : fields) c = c == '\n' ? ' ' : c;
  for (const std::string& field : Split(fields, ' ')) {
    const size_t equals = field.find('=');
    if (equals == std::string_view::npos) continue;
    const std::string key = field.substr(0, equals);
    const std::string value = field.substr(equals + 1);
    if (key == "JobId" && job.id.empty()) {
      job.id = value;
    } else if (key == "JobState") {
      job.state = BaseState(value);
      has_state = true;
    } else if (key == "Reason") {
      job.reason = value;
    } else if (key == "ExitCode") {
      if (absl::Status read = ParseExitCode(value, job); !read.ok()) return read;
    }
  }
  if (!has_state) {
    return absl::InvalidArgumentError(
        Concat("slurm: no JobState in scontrol's answer: ", text.substr(0, 200)));
  }
  return job;
}

absl::StatusOr<SlurmJobInfo> ParseSacctLine(std::string_view text) {
  const std::string_view line = text.substr(0, text.find('\n'));
  std::vector<std::string> fields = Split(line, '|');
  if (fields.size() < 4 || fields[1].empty()) {
    return absl::InvalidArgumentError(
        Concat("slurm: cannot read sacct's answer: ", line.substr(0, 200)));
  }
  SlurmJobInfo job;
  job.id = fields[0];
  job.state = BaseState(fields[1]);
  if (absl::Status read = ParseExitCode(fields[2], job); !read.ok()) return read;
  job.reason = fields[3];
  return job;
}

absl::StatusOr<std::string> ParseSbatchJobId(std::string_view text) {
  std::string_view line = text.substr(0, text.find('\n'));
  const std::string id_text(line.substr(0, line.find(';')));
  int id = 0;
  if (id_text.empty() || !absl::SimpleAtoi(id_text, &id) || id <= 0) {
    return absl::InvalidArgumentError(
        Concat("slurm: sbatch did not print a job id: ", text.substr(0, 200)));
  }
  return id_text;
}

JobVerdict ClassifyJob(const SlurmJobInfo& job) {
  for (const StateRule& rule : kStates) {
    if (rule.state != job.state) continue;
    JobVerdict verdict{rule.phase, std::string(rule.words)};
    if (rule.phase == JobPhase::kWaiting && IsHopeless(job.reason)) {
      return {JobPhase::kBroken, Concat("cannot start: ", job.reason, " (", job.state, ")")};
    }
    if (job.state == "FAILED" && IsLaunchFailure(job)) {
      return {JobPhase::kBroken, Concat("failed to launch: ", job.reason)};
    }
    if (verdict.phase == JobPhase::kBroken && !job.reason.empty() && job.reason != "None") {
      verdict.why += Concat(" (", job.reason, ")");
    }
    return verdict;
  }
  return {JobPhase::kBroken,
          Concat("in a state smallfix does not know: ", job.state, " (", job.reason, ")")};
}

}  // namespace smallfix
