#include "engine/repair/request_builder.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <random>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "engine/base/read_file.h"
#include "engine/repair/repo_config.h"

namespace smallfix {
namespace {

absl::StatusOr<Site> ParseSite(const std::string& text) {
  const size_t colon = text.rfind(':');
  int line = 0;
  if (colon == std::string::npos || colon == 0 ||
      !absl::SimpleAtoi(text.substr(colon + 1), &line) || line < 1) {
    return absl::InvalidArgumentError(absl::StrFormat("--site %s: expected FILE:LINE", text));
  }
  Site site;
  site.file = text.substr(0, colon);
  site.line = line;
  site.score = 1.0;
  return site;
}

bool IsEnvironmentName(const std::string& name) {
  if (name.empty() || absl::ascii_isdigit(name[0])) return false;
  for (char c : name) {
    if (!absl::ascii_isalnum(c) && c != '_') return false;
  }
  return true;
}

// The failure's text: a log larger than localization reads is read from its tail (the
// failure that matters is printed last), with a note saying so.
absl::StatusOr<std::string> ReadInput(const std::string& path, const char* flag,
                                      std::vector<std::string>* notes) {
  size_t size = 0;
  absl::StatusOr<std::string> text = ReadFileTail(path, LocalizeOptions().max_input_bytes, &size);
  if (!text.ok())
    return absl::InvalidArgumentError(absl::StrFormat("%s %s", flag, text.status().message()));
  if (text->find_first_not_of(" \t\r\n") == std::string::npos)
    return absl::InvalidArgumentError(absl::StrFormat("%s %s is empty", flag, path));
  if (size > text->size()) {
    notes->push_back(absl::StrFormat(
        "%s %s has %d bytes; only its last %d were read (the failure that matters is printed last)",
        flag, path, size, text->size()));
  }
  return text;
}

// A name for this repair's Slurm jobs, unique enough that a run's jobs can be told from
// another run's in squeue: smallfix-<6 hex digits>.
std::string SlurmJobPrefix() {
  std::random_device random;
  return absl::StrFormat("smallfix-%06x", random() & 0xffffff);
}

// The Slurm settings: inputs over .smallfix.yaml's slurm: mapping over defaults.
SlurmOptions SlurmSettings(const RepairInputs& o, const RepoConfig::Slurm& config) {
  SlurmOptions slurm;
  slurm.partition = !o.slurm_partition.empty() ? o.slurm_partition : config.partition.value_or("");
  slurm.account = !o.slurm_account.empty() ? o.slurm_account : config.account.value_or("");
  slurm.qos = !o.slurm_qos.empty() ? o.slurm_qos : config.qos.value_or("");
  slurm.workdir = !o.slurm_workdir.empty() ? o.slurm_workdir : config.workdir.value_or("");
  slurm.nodes = o.slurm_nodes >= 0 ? o.slurm_nodes : config.nodes.value_or(1);
  slurm.gpus_per_node =
      o.slurm_gpus_per_node >= 0 ? o.slurm_gpus_per_node : config.gpus_per_node.value_or(0);
  slurm.extra_args = !o.slurm_args.empty() ? o.slurm_args : config.args;
  slurm.start_timeout_seconds = config.start_timeout.value_or(slurm.start_timeout_seconds);
  slurm.job_name_prefix = !o.slurm_job_prefix.empty() ? o.slurm_job_prefix : SlurmJobPrefix();
  return slurm;
}

// --pass-env over .smallfix.yaml's pass_env: (both count), --allow-network and --no-network.
absl::Status SetSandbox(const RepairInputs& o, const RepoConfig& config, ValidationPlan& plan) {
  if (o.allow_network && o.no_network)
    return absl::InvalidArgumentError("give at most one of --allow-network and --no-network");
  plan.network.candidates = o.allow_network;
  plan.network.reproduction = !o.no_network;
  std::vector<std::string> names = config.pass_env;
  names.insert(names.end(), o.pass_env.begin(), o.pass_env.end());
  for (const std::string& name : names) {
    if (!IsEnvironmentName(name)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "--pass-env %s: expected the name of an environment variable (letters, digits, _)",
          name));
    }
  }
  plan.runner.pass_env = std::move(names);
  return absl::OkStatus();
}

// The failure to repair from, or the sites (perfect localization) with their symptom.
absl::Status SetFailure(const RepairInputs& o, RepairRequest& request) {
  const int given = !o.issue.empty() + !o.failure_text.empty() + !o.log.empty() + !o.sites.empty();
  if (given != 1)
    return absl::InvalidArgumentError(
        "give exactly one of --issue FILE, --log FILE or --site FILE:LINE");
  if (!o.failure_text.empty()) {
    request.failure_text = o.failure_text;
    request.failure_kind = o.failure_kind;
  } else if (!o.issue.empty() || !o.log.empty()) {
    absl::StatusOr<std::string> text = o.issue.empty()
                                           ? ReadInput(o.log, "--log", &request.input_notes)
                                           : ReadInput(o.issue, "--issue", &request.input_notes);
    if (!text.ok()) return text.status();
    request.failure_text = *std::move(text);
    request.failure_kind = o.issue.empty() ? FailureKind::kAuto : FailureKind::kIssue;
  }
  for (const std::string& text : o.sites) {
    absl::StatusOr<Site> site = ParseSite(text);
    if (!site.ok()) return site.status();
    request.sites.push_back(*site);
  }
  if (o.one_fix && o.sites.empty()) return absl::InvalidArgumentError("--one-fix needs --site");
  request.one_fix = o.one_fix;
  request.symptom_text = o.symptom;
  return absl::OkStatus();
}

// The runner: kind, ranks and, for Slurm, the job settings.
absl::Status SetRunner(const RepairInputs& o, const RepoConfig& config, RunnerOptions& runner) {
  const std::string name = !o.runner.empty() ? o.runner : config.runner.value_or("local");
  const std::optional<RunnerKind> kind = ParseRunnerKind(name);
  if (!kind) {
    return absl::InvalidArgumentError(
        absl::StrFormat("--runner %s: expected local, torchrun or slurm", name));
  }
  runner.kind = *kind;
  runner.world_size = o.world_size > 0 ? o.world_size : config.world_size.value_or(1);
  if (runner.world_size > 1 && o.runner.empty() && !config.runner)
    runner.kind = RunnerKind::kTorchrun;
  const bool slurm_flags = !o.slurm_partition.empty() || !o.slurm_account.empty() ||
                           !o.slurm_qos.empty() || !o.slurm_workdir.empty() || o.slurm_nodes >= 0 ||
                           o.slurm_gpus_per_node >= 0 || !o.slurm_args.empty();
  if (slurm_flags && runner.kind != RunnerKind::kSlurm) {
    return absl::InvalidArgumentError(
        "--slurm-* flags need --runner slurm (or `runner: slurm` in .smallfix.yaml)");
  }
  if (runner.kind != RunnerKind::kSlurm) return absl::OkStatus();
  runner.slurm = SlurmSettings(o, config.slurm);
  if (runner.slurm.nodes < 1) return absl::InvalidArgumentError("--slurm-nodes must be 1 or more");
  if (runner.world_size % runner.slurm.nodes != 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("--world-size %d does not spread evenly over --slurm-nodes %d",
                        runner.world_size, runner.slurm.nodes));
  }
  return absl::OkStatus();
}

// How candidates are proven: the tests, the build, the interpreter, the runner and limits.
absl::StatusOr<ValidationPlan> PlanOf(const RepairInputs& o, const RepoConfig& config) {
  ValidationPlan plan;
  plan.failing_test = !o.tests.empty() ? o.tests.front() : config.test.value_or("");
  for (size_t i = 1; i < o.tests.size(); ++i) plan.other_tests.push_back(o.tests[i]);
  if (o.tests.size() <= 1) {
    for (const std::string& test : config.tests) plan.other_tests.push_back(test);
  }
  plan.warm = !o.cold;
  plan.build = !o.build.empty() ? o.build : config.build.value_or("");
  plan.interpreter =
      !o.python.empty() ? o.python : config.interpreter.value_or(DefaultInterpreter());
  if (absl::Status runner = SetRunner(o, config, plan.runner); !runner.ok()) return runner;
  if (absl::Status sandbox = SetSandbox(o, config, plan); !sandbox.ok()) return sandbox;
  plan.runner.time_limit_seconds = o.timeout > 0 ? o.timeout : config.timeout.value_or(300);
  plan.runner.memory_limit_bytes = config.memory_limit_mb.value_or(0) << 20;
  return plan;
}

}  // namespace

absl::StatusOr<RepairRequest> BuildRepairRequest(const RepairInputs& o,
                                                 const std::atomic<bool>* cancel) {
  RepairRequest request;
  request.repo = o.repo;
  std::error_code error;
  if (!std::filesystem::is_directory(o.repo, error)) {
    return absl::InvalidArgumentError(absl::StrFormat("--repo %s is not a directory", o.repo));
  }
  RepoConfig config;
  if (o.read_repo_config) {
    absl::StatusOr<RepoConfig> loaded = LoadRepoConfig(o.repo);
    if (!loaded.ok()) return loaded.status();
    config = *std::move(loaded);
  }
  if (absl::Status failure = SetFailure(o, request); !failure.ok()) return failure;
  request.templates_dir = o.templates;
  request.validate = !o.no_validate;
  request.top = std::max(1, o.top);
  request.jobs = std::max(1, o.jobs);
  request.weak_lookahead = std::max(0, o.weak_lookahead);
  request.max_candidates = std::max(0, o.max_candidates);
  request.coverage = o.coverage;
  request.coverage_when_no_site = request.validate;
  request.apply = o.apply;
  request.llm = o.llm;
  request.llm_failure = o.llm_failure;
  request.cancel = cancel;
  absl::StatusOr<ValidationPlan> plan = PlanOf(o, config);
  if (!plan.ok()) return plan.status();
  request.plan = *std::move(plan);
  return request;
}

}  // namespace smallfix
