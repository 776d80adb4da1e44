#include "engine/doctor/doctor.h"

#include <filesystem>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/doctor/llm_check.h"
#include "engine/doctor/python_checks.h"
#include "engine/doctor/tool_checks.h"
#include "engine/repair/repo_config.h"
#include "validators/process/python_env.h"

namespace smallfix::doctor {
namespace {

// The interpreter a repair would use, and where that choice came from.
std::pair<std::string, std::string> Interpreter(const DoctorOptions& o, const RepoConfig& config) {
  if (!o.python.empty()) return {o.python, "--python"};
  if (config.interpreter) {
    std::string path = *config.interpreter;
    // A relative path with a folder in it names a file in the repo (.venv/bin/python).
    if (path.find('/') != std::string::npos && path.front() != '/')
      path = (std::filesystem::path(o.repo) / path).lexically_normal().string();
    return {path, ".smallfix.yaml"};
  }
  return {DefaultInterpreter(), "the first python3 on PATH"};
}

Check TestsCheck(const RepoConfig& config) {
  if (config.test) {
    return Ok("tests",
              Concat("test: ", *config.test,
                     config.tests.empty()
                         ? ""
                         : absl::StrFormat(" and %d more (.smallfix.yaml)", config.tests.size())));
  }
  return Warn("tests", "no test: in .smallfix.yaml", "give repair --test \"python -m pytest ...\"");
}

}  // namespace

absl::StatusOr<std::vector<Check>> RunChecks(const DoctorOptions& o) {
  std::error_code error;
  if (!std::filesystem::is_directory(o.repo, error))
    return absl::InvalidArgumentError(absl::StrFormat("--repo %s is not a directory", o.repo));
  absl::StatusOr<RepoConfig> config = LoadRepoConfig(o.repo);
  if (!config.ok()) return config.status();
  const std::string runner = !o.runner.empty() ? o.runner : config->runner.value_or("local");
  if (runner != "local" && runner != "torchrun" && runner != "slurm") {
    return absl::InvalidArgumentError(
        absl::StrFormat("--runner %s: expected local, torchrun or slurm", runner));
  }
  const int world_size = o.world_size > 0 ? o.world_size : config->world_size.value_or(1);

  std::vector<Check> checks = {GitCheck()};
  for (Check& check : DataChecks()) checks.push_back(std::move(check));
  const auto [interpreter, origin] = Interpreter(o, *config);
  for (Check& check : PythonChecks(interpreter, origin, world_size))
    checks.push_back(std::move(check));
  checks.push_back(TestsCheck(*config));
  if (runner == "slurm") {
    const std::string why = o.runner.empty() ? "runner: slurm in .smallfix.yaml" : "--runner slurm";
    for (Check& check : SlurmChecks(why)) checks.push_back(std::move(check));
  } else {
    checks.push_back(Skipped("slurm", Concat("runner ", runner, "; only --runner slurm needs it")));
  }
  if (!o.llm_url.empty()) {
    checks.push_back(LlmCheck(o.llm_url, o.llm_model, o.llm_timeout_seconds));
  } else {
    checks.push_back(Skipped("llm", "no --llm; the heuristic ranks alone"));
  }
  return checks;
}

}  // namespace smallfix::doctor
