#include "engine/bench/realbugs/real_bug.h"

#include <fstream>
#include <set>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "nlohmann/json.hpp"
#include "validators/pytest_command.h"

namespace smallfix::realbugs {
namespace {

using nlohmann::json;

// Reads `key` of `line` into `out`; a missing key or one of another type is an error.
template <typename T>
absl::Status Field(const json& line, const char* key, T& out, bool required = true) {
  const auto it = line.find(key);
  if (it == line.end() || it->is_null()) {
    return required ? absl::InvalidArgumentError(Concat("missing field '", key, "'"))
                    : absl::OkStatus();
  }
  try {
    out = it->get<T>();
  } catch (const json::exception&) {
    return absl::InvalidArgumentError(Concat("field '", key, "' has the wrong type"));
  }
  return absl::OkStatus();
}

absl::StatusOr<RealBug> Parse(const json& line) {
  RealBug bug;
  for (auto [key, out] : {std::pair{"id", &bug.id},
                          {"project", &bug.project},
                          {"repo", &bug.repo},
                          {"fix_commit", &bug.fix_commit},
                          {"parent_commit", &bug.parent_commit},
                          {"family", &bug.family},
                          {"split", &bug.split},
                          {"env", &bug.env}}) {
    if (absl::Status s = Field(line, key, *out); !s.ok()) return s;
  }
  if (absl::Status s = Field(line, "source_root", bug.source_root, false); !s.ok()) return s;
  if (absl::Status s = Field(line, "launcher", bug.launcher, false); !s.ok()) return s;
  if (absl::Status s = Field(line, "pytest_args", bug.pytest_args, false); !s.ok()) return s;
  if (absl::Status s = Field(line, "env_vars", bug.env_vars, false); !s.ok()) return s;
  for (auto [key, out] : {std::pair{"files", &bug.files},
                          {"failing_tests", &bug.failing_tests},
                          {"regression_tests", &bug.regression_tests},
                          {"held_back_tests", &bug.held_back_tests}}) {
    if (absl::Status s = Field(line, key, *out); !s.ok()) return s;
  }
  if (absl::Status s = Field(line, "processes", bug.processes); !s.ok()) return s;
  bug.on_pypi = line.contains("pypi") && line["pypi"].is_object();
  if (bug.files.empty() || bug.failing_tests.empty()) {
    return absl::InvalidArgumentError("'files' and 'failing_tests' must not be empty");
  }
  return bug;
}

}  // namespace

std::string RealBug::TestCommand(const std::vector<std::string>& tests) const {
  std::string command = launcher.empty() ? "python -m pytest" : Concat(launcher, " pytest");
  command += " -q -p no:cacheprovider";
  for (const std::string& arg : pytest_args) command += " " + ShellQuote(arg);
  for (const std::string& test : tests) command += " " + ShellQuote(test);
  return command;
}

std::map<std::string, std::string> RealBug::Environment() const {
  std::map<std::string, std::string> env = {{"PYTHONPATH", source_root},
                                            {"HF_HUB_OFFLINE", "1"},
                                            {"HF_DATASETS_OFFLINE", "1"},
                                            {"TRANSFORMERS_OFFLINE", "1"}};
  for (const auto& [key, value] : env_vars) env[key] = value;
  return env;
}

absl::StatusOr<std::vector<RealBug>> LoadRealBugs(const std::string& path,
                                                  const std::vector<std::string>& ids,
                                                  const std::string& split) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(Concat("cannot read ", path));
  const std::set<std::string> chosen(ids.begin(), ids.end());
  std::set<std::string> unseen = chosen;
  std::vector<RealBug> bugs;
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) {
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    const json line = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!line.is_object())
      return absl::InvalidArgumentError(absl::StrFormat("%s:%d: not a JSON object", path, number));
    absl::StatusOr<RealBug> bug = Parse(line);
    if (!bug.ok()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("%s:%d: %s", path, number, bug.status().message()));
    }
    unseen.erase(bug->id);
    if (!chosen.empty() && !chosen.count(bug->id)) continue;
    if (!split.empty() && bug->split != split) continue;
    bugs.push_back(*std::move(bug));
  }
  if (!unseen.empty())
    return absl::InvalidArgumentError(Concat("no bug '", *unseen.begin(), "' in ", path));
  return bugs;
}

}  // namespace smallfix::realbugs
