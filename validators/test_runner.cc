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
#include "validators/process.h"
#include "validators/rank_outcome.h"
#include "validators/pytest_command.h"
#include "validators/slurm_test_runner.h"
#include "validators/torchrun_env.h"

namespace smallfix {
namespace {

namespace fs = std::filesystem;

// How long the other ranks may go on after one rank failed, before they are stopped (a
// rank waiting in a collective for a dead peer would otherwise wait for its full timeout).
constexpr double kRankGraceSeconds = 5;

using RankResult = absl::StatusOr<ProcessResult>;

// Environment: torchrun's contract for rank `rank` of `world` on this host, over `options.env`.
std::map<std::string, std::string> RankEnvironment(const RunnerOptions& options, int rank, int world, int port) {
  std::map<std::string, std::string> env = options.env;
  const std::string r = std::to_string(rank), w = std::to_string(world);
  for (auto& [key, value] : TorchrunEnvironment({r, r, w, w, "127.0.0.1", std::to_string(port)})) env[key] = value;
  if (!options.gpus.empty()) {
    // Rank r gets the r-th listed device.
    std::vector<std::string> devices;
    for (size_t start = 0; start <= options.gpus.size();) {
      size_t end = options.gpus.find(',', start);
      if (end == std::string::npos) end = options.gpus.size();
      devices.push_back(options.gpus.substr(start, end - start));
      start = end + 1;
    }
    env["CUDA_VISIBLE_DEVICES"] = devices[rank % devices.size()];
  }
  return env;
}

// Launch: every process in its own thread; this thread watches for `cancel` and for a
// failed rank, after which the others get kRankGraceSeconds before they are stopped.
std::vector<RankResult> LaunchWithGrace(std::vector<ProcessOptions>& processes, const std::atomic<bool>* cancel,
                                        bool* cancelled) {
  struct Slot {
    RankResult result = absl::UnknownError("not run");
    std::atomic<bool> done{false};
  };
  std::atomic<bool> stop{false};
  std::vector<Slot> slots(processes.size());
  std::vector<std::thread> threads;
  for (size_t rank = 0; rank < processes.size(); ++rank) {
    processes[rank].cancel = &stop;
    threads.emplace_back([&, rank] {
      slots[rank].result = RunProcess(processes[rank]);
      slots[rank].done = true;
    });
  }
  std::optional<std::chrono::steady_clock::time_point> first_failure;
  *cancelled = false;
  for (;;) {
    bool all_done = true;
    for (Slot& slot : slots) {
      if (!slot.done) {
        all_done = false;
      } else if (!first_failure && (!slot.result.ok() || !slot.result->ok())) {
        first_failure = std::chrono::steady_clock::now();
      }
    }
    if (all_done) break;
    if (cancel != nullptr && cancel->load()) {
      *cancelled = true;
      stop = true;
    }
    if (first_failure && std::chrono::duration<double>(std::chrono::steady_clock::now() - *first_failure).count() >
                             kRankGraceSeconds) {
      stop = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  for (std::thread& thread : threads) thread.join();
  std::vector<RankResult> results;
  for (Slot& slot : slots) results.push_back(std::move(slot.result));
  return results;
}

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
    int port = 0;
    if (rank_env_) {
      absl::StatusOr<int> free = FreePort();
      if (!free.ok()) return free.status();
      port = *free;
    }
    std::vector<ProcessOptions> processes(world_);
    for (int rank = 0; rank < world_; ++rank) {
      ProcessOptions& process = processes[rank];
      process.shell_command = command;
      if (pytest) process.shell_command += " --junitxml=" + RankJUnitPath(scratch->path(), rank);
      process.cwd = dir;
      process.env = rank_env_ ? RankEnvironment(options_, rank, world_, port) : options_.env;
      process.time_limit_seconds = options_.time_limit_seconds;
      process.memory_limit_bytes = options_.memory_limit_bytes;
    }

    const auto start = std::chrono::steady_clock::now();
    RankRunFacts facts;
    const std::vector<RankResult> results = LaunchWithGrace(processes, options_.cancel, &facts.cancelled);
    facts.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::vector<ProcessResult> ranks;
    for (const RankResult& result : results) {
      if (!result.ok()) return result.status();
      ranks.push_back(*result);
    }
    facts.pytest = pytest;
    facts.junit_dir = scratch->path();
    facts.time_limit_seconds = options_.time_limit_seconds;
    return ScoreRanks(ranks, facts);
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
  switch (kind) {
    case RunnerKind::kTorchrun:
      return std::make_unique<RankRunner>(options, std::max(1, options.world_size), /*rank_env=*/true);
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
