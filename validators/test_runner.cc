#include "validators/test_runner.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>
#include <vector>

#include "engine/base/temp_dir.h"
#include "validators/facts/fact_plugin.h"
#include "validators/process/process.h"
#include "validators/pytest_command.h"
#include "validators/ranks/rank_launch.h"
#include "validators/ranks/rank_outcome.h"
#include "validators/slurm/slurm_test_runner.h"
#include "validators/warm/warm_runner.h"

namespace smallfix {
namespace {

namespace fs = std::filesystem;

using RankResult = absl::StatusOr<ProcessResult>;

// Local and torchrun-style runs differ only in how many processes start and their
// environment.
class RankRunner : public TestRunner {
 public:
  RankRunner(RunnerOptions options, int world, bool rank_env)
      : options_(std::move(options)), world_(world), rank_env_(rank_env) {}

  absl::StatusOr<TestRun> Run(const std::string& dir, const std::string& command) const override {
    const bool pytest = IsPytest(command);
    absl::StatusOr<TempDir> scratch = TempDir::Create("smallfix-run");
    if (!scratch.ok()) return scratch.status();
    absl::StatusOr<std::vector<ProcessOptions>> made =
        RankProcesses(options_, dir, world_, rank_env_);
    if (!made.ok()) return made.status();
    std::vector<ProcessOptions>& processes = *made;
    for (ProcessOptions& process : processes) {
      const int rank = static_cast<int>(&process - processes.data());
      process.shell_command = command;
      if (pytest) process.shell_command += " --junitxml=" + RankJUnitPath(scratch->path(), rank);
      if (pytest && options_.capture_facts) {
        process.shell_command +=
            FactPluginArguments({RankFactsPath(scratch->path(), rank), options_.facts_trace});
        AddFactPluginPath(process.env);
      }
    }

    const auto start = std::chrono::steady_clock::now();
    RankRunFacts facts;
    const std::vector<RankResult> results =
        LaunchWithGrace(processes, RunProcess, options_.cancel, &facts.cancelled);
    facts.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::vector<ProcessResult> ranks;
    for (const RankResult& result : results) {
      if (!result.ok()) return result.status();
      ranks.push_back(*result);
    }
    facts.pytest = pytest;
    facts.junit_dir = scratch->path();
    facts.time_limit_seconds = options_.time_limit_seconds;
    TestRun run = ScoreRanks(ranks, facts);
    if (pytest && options_.capture_facts) run.facts_json = FirstRankFacts(scratch->path(), world_);
    return run;
  }

 private:
  RunnerOptions options_;
  int world_;
  bool rank_env_;
};

}  // namespace

std::string_view RunnerKindName(RunnerKind kind) {
  switch (kind) {
    case RunnerKind::kLocal:
      return "local";
    case RunnerKind::kTorchrun:
      return "torchrun";
    case RunnerKind::kSlurm:
      return "slurm";
  }
  return "local";
}

std::optional<RunnerKind> ParseRunnerKind(std::string_view name) {
  for (RunnerKind kind : {RunnerKind::kLocal, RunnerKind::kTorchrun, RunnerKind::kSlurm}) {
    if (RunnerKindName(kind) == name) return kind;
  }
  return std::nullopt;
}

std::unique_ptr<TestRunner> MakeTestRunner(RunnerKind kind, const RunnerOptions& options) {
  if (options.warm != nullptr && kind != RunnerKind::kSlurm) {
    RunnerOptions cold = options;
    cold.warm = nullptr;
    const bool ranks = kind == RunnerKind::kTorchrun;
    return MakeWarmRunner(options.warm, options, ranks ? std::max(1, options.world_size) : 1, ranks,
                          MakeTestRunner(kind, cold));
  }
  switch (kind) {
    case RunnerKind::kTorchrun:
      return std::make_unique<RankRunner>(options, std::max(1, options.world_size),
                                          /*rank_env=*/true);
    case RunnerKind::kSlurm:
      return std::make_unique<SlurmTestRunner>(options);
    case RunnerKind::kLocal:
      break;
  }
  return std::make_unique<RankRunner>(options, 1, /*rank_env=*/false);
}

absl::StatusOr<TestRun> RunTestCommand(const std::string& dir, const std::string& command,
                                       const RunnerOptions& options) {
  return MakeTestRunner(options.kind, options)->Run(dir, command);
}

absl::StatusOr<int> FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return absl::InternalError("cannot open a socket to find a free port");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    close(fd);
    return absl::InternalError("cannot bind a socket on 127.0.0.1 to find a free port");
  }
  close(fd);
  return ntohs(address.sin_port);
}

}  // namespace smallfix
