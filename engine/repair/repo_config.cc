#include "engine/repair/repo_config.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "validators/test_runner.h"

namespace smallfix {
namespace {

// The `slurm:` mapping; `path` for messages.
absl::Status ReadSlurm(const std::filesystem::path& path, const YAML::Node& node,
                       RepoConfig::Slurm& slurm) {
  if (!node.IsMap()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s:%d: slurm must be a mapping (partition: ..., gpus_per_node: ...)",
                        path.string(), node.Mark().line + 1));
  }
  for (const auto& item : node) {
    const std::string key = item.first.as<std::string>();
    const YAML::Node& value = item.second;
    if (key == "partition")
      slurm.partition = value.as<std::string>();
    else if (key == "account")
      slurm.account = value.as<std::string>();
    else if (key == "qos")
      slurm.qos = value.as<std::string>();
    else if (key == "workdir")
      slurm.workdir = value.as<std::string>();
    else if (key == "nodes")
      slurm.nodes = value.as<int>();
    else if (key == "gpus_per_node")
      slurm.gpus_per_node = value.as<int>();
    else if (key == "start_timeout")
      slurm.start_timeout = value.as<double>();
    else if (key == "args") {
      if (value.IsScalar())
        slurm.args.push_back(value.as<std::string>());
      else
        for (const YAML::Node& arg : value) slurm.args.push_back(arg.as<std::string>());
    } else {
      return absl::InvalidArgumentError(
          absl::StrFormat("%s:%d: unknown slurm setting '%s' (known: partition, account, qos, "
                          "nodes, gpus_per_node, args, "
                          "workdir, start_timeout)",
                          path.string(), item.first.Mark().line + 1, key));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<RepoConfig> LoadRepoConfig(const std::string& repo) {
  const std::filesystem::path path = std::filesystem::path(repo) / ".smallfix.yaml";
  RepoConfig config;
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return config;
  try {
    const YAML::Node root = YAML::LoadFile(path.string());
    if (root.IsNull()) return config;
    if (!root.IsMap())
      return absl::InvalidArgumentError(Concat(path.string(), ": expected a mapping of settings"));
    for (const auto& item : root) {
      const std::string key = item.first.as<std::string>();
      const YAML::Node& value = item.second;
      if (key == "build")
        config.build = value.as<std::string>();
      else if (key == "test")
        config.test = value.as<std::string>();
      else if (key == "tests") {
        if (value.IsScalar())
          config.tests.push_back(value.as<std::string>());
        else
          for (const YAML::Node& test : value) config.tests.push_back(test.as<std::string>());
      } else if (key == "pass_env") {
        if (value.IsScalar())
          config.pass_env.push_back(value.as<std::string>());
        else
          for (const YAML::Node& name : value) config.pass_env.push_back(name.as<std::string>());
      } else if (key == "runner") {
        config.runner = value.as<std::string>();
        if (!ParseRunnerKind(*config.runner)) {
          return absl::InvalidArgumentError(
              absl::StrFormat("%s:%d: runner must be local, torchrun or slurm", path.string(),
                              item.first.Mark().line + 1));
        }
      } else if (key == "world_size")
        config.world_size = value.as<int>();
      else if (key == "interpreter")
        config.interpreter = value.as<std::string>();
      else if (key == "timeout")
        config.timeout = value.as<double>();
      else if (key == "memory_limit_mb")
        config.memory_limit_mb = value.as<size_t>();
      else if (key == "slurm") {
        if (absl::Status read = ReadSlurm(path, value, config.slurm); !read.ok()) return read;
      } else {
        return absl::InvalidArgumentError(
            absl::StrFormat("%s:%d: unknown setting '%s' (known: build, test, tests, runner, "
                            "world_size, interpreter, "
                            "timeout, memory_limit_mb, pass_env, slurm)",
                            path.string(), item.first.Mark().line + 1, key));
      }
    }
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s:%d: %s", path.string(), e.mark.line + 1, e.msg));
  }
  return config;
}

}  // namespace smallfix
