#include "engine/repair/repo_config.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"

namespace smallfix {

absl::StatusOr<RepoConfig> LoadRepoConfig(const std::string& repo) {
  const std::filesystem::path path = std::filesystem::path(repo) / ".smallfix.yaml";
  RepoConfig config;
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return config;
  try {
    const YAML::Node root = YAML::LoadFile(path.string());
    if (root.IsNull()) return config;
    if (!root.IsMap()) return absl::InvalidArgumentError(Concat(path.string(), ": expected a mapping of settings"));
    for (const auto& item : root) {
      const std::string key = item.first.as<std::string>();
      const YAML::Node& value = item.second;
      if (key == "build") config.build = value.as<std::string>();
      else if (key == "test") config.test = value.as<std::string>();
      else if (key == "tests") {
        if (value.IsScalar()) config.tests.push_back(value.as<std::string>());
        else for (const YAML::Node& test : value) config.tests.push_back(test.as<std::string>());
      } else if (key == "runner") {
        config.runner = value.as<std::string>();
        if (*config.runner != "local" && *config.runner != "torchrun") {
          return absl::InvalidArgumentError(absl::StrFormat("%s:%d: runner must be local or torchrun",
                                                            path.string(), item.first.Mark().line + 1));
        }
      } else if (key == "world_size") config.world_size = value.as<int>();
      else if (key == "interpreter") config.interpreter = value.as<std::string>();
      else if (key == "timeout") config.timeout = value.as<double>();
      else if (key == "memory_limit_mb") config.memory_limit_mb = value.as<size_t>();
      else {
        return absl::InvalidArgumentError(absl::StrFormat(
            "%s:%d: unknown setting '%s' (known: build, test, tests, runner, world_size, interpreter, "
            "timeout, memory_limit_mb)",
            path.string(), item.first.Mark().line + 1, key));
      }
    }
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrFormat("%s:%d: %s", path.string(), e.mark.line + 1, e.msg));
  }
  return config;
}

}  // namespace smallfix
