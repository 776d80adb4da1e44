#include "engine/repair/repo_config.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <optional>
#include <type_traits>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "validators/test_runner.h"

namespace smallfix {
namespace {

using Path = std::filesystem::path;

absl::Status Bad(const Path& path, const YAML::Node& node, const std::string& what) {
  return absl::InvalidArgumentError(
      absl::StrFormat("%s:%d: %s", path.string(), node.Mark().line + 1, what));
}

// One setting's value as T, which must be at least `least` when given; the error names the
// file, the line, the key and what it must be.
template <typename T>
absl::Status Read(const Path& path, const std::string& key, const YAML::Node& value,
                  const char* expected, std::optional<T>& out,
                  std::type_identity_t<std::optional<T>> least = std::nullopt) {
  try {
    if (!value.IsScalar()) throw YAML::BadConversion(value.Mark());
    out = value.as<T>();
  } catch (const YAML::Exception&) {
    return Bad(path, value, Concat(key, " must be ", expected));
  }
  if (least && *out < *least) return Bad(path, value, Concat(key, " must be ", expected));
  return absl::OkStatus();
}

// A string or a list of strings.
absl::Status ReadList(const Path& path, const std::string& key, const YAML::Node& value,
                      std::vector<std::string>& out) {
  const std::string expected = Concat(key, " must be a string or a list of strings");
  if (value.IsScalar()) {
    out.push_back(value.as<std::string>());
    return absl::OkStatus();
  }
  if (!value.IsSequence()) return Bad(path, value, expected);
  for (const YAML::Node& item : value) {
    if (!item.IsScalar()) return Bad(path, item, expected);
    out.push_back(item.as<std::string>());
  }
  return absl::OkStatus();
}

// The `slurm:` mapping.
absl::Status ReadSlurm(const Path& path, const YAML::Node& node, RepoConfig::Slurm& slurm) {
  if (!node.IsMap())
    return Bad(path, node, "slurm must be a mapping (partition: ..., gpus_per_node: ...)");
  for (const auto& item : node) {
    const std::string key = item.first.as<std::string>();
    const YAML::Node& value = item.second;
    const std::string name = Concat("slurm.", key);
    absl::Status read;
    if (key == "partition" || key == "account" || key == "qos" || key == "workdir") {
      std::optional<std::string>& field = key == "partition" ? slurm.partition
                                          : key == "account" ? slurm.account
                                          : key == "qos"     ? slurm.qos
                                                             : slurm.workdir;
      read = Read(path, name, value, "a string", field);
    } else if (key == "nodes") {
      read = Read(path, name, value, "a whole number, 1 or more", slurm.nodes, 1);
    } else if (key == "gpus_per_node") {
      read = Read(path, name, value, "a whole number, 0 or more", slurm.gpus_per_node, 0);
    } else if (key == "start_timeout") {
      read = Read(path, name, value, "a number of seconds above 0", slurm.start_timeout, 1e-9);
    } else if (key == "args") {
      read = ReadList(path, name, value, slurm.args);
    } else {
      return Bad(path, item.first,
                 Concat("unknown slurm setting '", key,
                        "' (known: partition, account, qos, nodes, gpus_per_node, args, workdir, "
                        "start_timeout)"));
    }
    if (!read.ok()) return read;
  }
  return absl::OkStatus();
}

// One top-level setting.
absl::Status ReadSetting(const Path& path, const YAML::Node& name, const YAML::Node& value,
                         RepoConfig& config) {
  const std::string key = name.as<std::string>();
  if (key == "build") return Read(path, key, value, "a command (a string)", config.build);
  if (key == "test") return Read(path, key, value, "a command (a string)", config.test);
  if (key == "interpreter") return Read(path, key, value, "a path (a string)", config.interpreter);
  if (key == "tests") return ReadList(path, key, value, config.tests);
  if (key == "pass_env") return ReadList(path, key, value, config.pass_env);
  if (key == "world_size")
    return Read(path, key, value, "a whole number of ranks, 1 or more", config.world_size, 1);
  if (key == "timeout")
    return Read(path, key, value, "a number of seconds above 0", config.timeout, 1e-9);
  if (key == "memory_limit_mb") {
    std::optional<long long> megabytes;
    absl::Status read = Read(path, key, value, "a whole number of MiB, 1 or more", megabytes, 1LL);
    if (read.ok()) config.memory_limit_mb = static_cast<size_t>(*megabytes);
    return read;
  }
  if (key == "runner") {
    absl::Status read = Read(path, key, value, "local, torchrun or slurm", config.runner);
    if (read.ok() && !ParseRunnerKind(*config.runner))
      return Bad(path, value,
                 Concat("runner must be local, torchrun or slurm, not '", *config.runner, "'"));
    return read;
  }
  if (key == "slurm") return ReadSlurm(path, value, config.slurm);
  return Bad(path, name,
             Concat("unknown setting '", key,
                    "' (known: build, test, tests, runner, world_size, interpreter, timeout, "
                    "memory_limit_mb, pass_env, slurm)"));
}

}  // namespace

absl::StatusOr<RepoConfig> LoadRepoConfig(const std::string& repo) {
  const Path path = Path(repo) / ".smallfix.yaml";
  RepoConfig config;
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return config;
  if (!std::filesystem::is_regular_file(path, error))
    return absl::InvalidArgumentError(Concat(path.string(), ": not a regular file"));
  try {
    const YAML::Node root = YAML::LoadFile(path.string());
    if (root.IsNull()) return config;
    if (!root.IsMap())
      return absl::InvalidArgumentError(Concat(path.string(), ": expected a mapping of settings"));
    for (const auto& item : root) {
      if (!item.first.IsScalar()) return Bad(path, item.first, "a setting's name must be a string");
      if (absl::Status read = ReadSetting(path, item.first, item.second, config); !read.ok())
        return read;
    }
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s:%d: %s", path.string(), e.mark.line + 1, e.msg));
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(Concat(path.string(), ": cannot read: ", e.what()));
  }
  return config;
}

}  // namespace smallfix
