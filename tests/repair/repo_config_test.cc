#include "engine/repair/repo_config.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "engine/base/temp_dir.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

absl::StatusOr<RepoConfig> LoadFrom(const TempDir& dir, const std::string& yaml) {
  std::ofstream(dir.path() + "/.smallfix.yaml") << yaml;
  return LoadRepoConfig(dir.path());
}

TEST(RepoConfigTest, ReadsTheSlurmMapping) {
  absl::StatusOr<TempDir> dir = TempDir::Create("repo-config-test");
  ASSERT_TRUE(dir.ok());
  absl::StatusOr<RepoConfig> config = LoadFrom(*dir,
                                               "runner: slurm\n"
                                               "world_size: 4\n"
                                               "slurm:\n"
                                               "  partition: gpu\n"
                                               "  account: ml\n"
                                               "  qos: debug\n"
                                               "  nodes: 2\n"
                                               "  gpus_per_node: 2\n"
                                               "  args: [--constraint=a100, --exclusive]\n"
                                               "  workdir: /shared/scratch\n"
                                               "  start_timeout: 120\n");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->runner, "slurm");
  EXPECT_EQ(config->slurm.partition, "gpu");
  EXPECT_EQ(config->slurm.account, "ml");
  EXPECT_EQ(config->slurm.qos, "debug");
  EXPECT_EQ(config->slurm.nodes, 2);
  EXPECT_EQ(config->slurm.gpus_per_node, 2);
  EXPECT_THAT(config->slurm.args, ElementsAre("--constraint=a100", "--exclusive"));
  EXPECT_EQ(config->slurm.workdir, "/shared/scratch");
  EXPECT_EQ(config->slurm.start_timeout, 120);
}

TEST(RepoConfigTest, PassEnvIsAListOrOneName) {
  absl::StatusOr<TempDir> dir = TempDir::Create("repo-config-test");
  ASSERT_TRUE(dir.ok());
  absl::StatusOr<RepoConfig> list = LoadFrom(*dir, "pass_env: [HF_TOKEN, WANDB_API_KEY]\n");
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_THAT(list->pass_env, ElementsAre("HF_TOKEN", "WANDB_API_KEY"));
  absl::StatusOr<RepoConfig> one = LoadFrom(*dir, "pass_env: HF_TOKEN\n");
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_THAT(one->pass_env, ElementsAre("HF_TOKEN"));
}

TEST(RepoConfigTest, BadSlurmSettingsNameTheLine) {
  absl::StatusOr<TempDir> dir = TempDir::Create("repo-config-test");
  ASSERT_TRUE(dir.ok());
  absl::StatusOr<RepoConfig> unknown = LoadFrom(*dir, "slurm:\n  partition: gpu\n  gpus: 2\n");
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(std::string(unknown.status().message()), HasSubstr(".smallfix.yaml:3: unknown slurm setting 'gpus'"));
  absl::StatusOr<RepoConfig> scalar = LoadFrom(*dir, "slurm: gpu\n");
  ASSERT_FALSE(scalar.ok());
  EXPECT_THAT(std::string(scalar.status().message()), HasSubstr("slurm must be a mapping"));
  absl::StatusOr<RepoConfig> runner = LoadFrom(*dir, "runner: pbs\n");
  ASSERT_FALSE(runner.ok());
  EXPECT_THAT(std::string(runner.status().message()), HasSubstr("runner must be local, torchrun or slurm"));
}

TEST(RepoConfigTest, ValuesOfTheWrongTypeNameTheKeyAndWhatItMustBe) {
  absl::StatusOr<TempDir> dir = TempDir::Create("repo-config-test");
  ASSERT_TRUE(dir.ok());
  const std::pair<const char*, const char*> cases[] = {
      {"timeout: soon\n", ".smallfix.yaml:1: timeout must be a number of seconds above 0"},
      {"timeout: -1\n", "timeout must be a number of seconds above 0"},
      {"world_size: [2]\n", "world_size must be a whole number of ranks, 1 or more"},
      {"world_size: 0\n", "world_size must be a whole number of ranks, 1 or more"},
      {"memory_limit_mb: -5\n", "memory_limit_mb must be a whole number of MiB, 1 or more"},
      {"tests: {a: 1}\n", "tests must be a string or a list of strings"},
      {"tests: [[a]]\n", "tests must be a string or a list of strings"},
      {"test: [a, b]\n", "test must be a command (a string)"},
      {"slurm: {nodes: x}\n", "slurm.nodes must be a whole number, 1 or more"},
      {"runner: mpi\n", "runner must be local, torchrun or slurm, not 'mpi'"},
      {"[a]: 1\n", "a setting's name must be a string"},
  };
  for (const auto& [yaml, message] : cases) {
    absl::StatusOr<RepoConfig> config = LoadFrom(*dir, yaml);
    ASSERT_FALSE(config.ok()) << yaml;
    EXPECT_THAT(std::string(config.status().message()), HasSubstr(message)) << yaml;
  }
}

TEST(RepoConfigTest, ADirectoryNamedLikeTheFileIsAnError) {
  absl::StatusOr<TempDir> dir = TempDir::Create("repo-config-test");
  ASSERT_TRUE(dir.ok());
  std::filesystem::create_directory(dir->path() + "/.smallfix.yaml");
  absl::StatusOr<RepoConfig> config = LoadRepoConfig(dir->path());
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(std::string(config.status().message()), HasSubstr(".smallfix.yaml: not a regular file"));
}

}  // namespace
}  // namespace smallfix
