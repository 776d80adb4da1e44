#include "validators/ranks/rank_launch.h"

#include <chrono>
#include <optional>
#include <thread>

#include "validators/process/network_sandbox.h"
#include "validators/ranks/torchrun_env.h"

namespace smallfix {
namespace {

using RankResult = absl::StatusOr<ProcessResult>;

// How long the other ranks may go on after one rank failed, before they are stopped (a
// rank waiting in a collective for a dead peer would otherwise wait for its full timeout).
constexpr double kRankGraceSeconds = 5;

}  // namespace

std::map<std::string, std::string> RankEnvironment(const RunnerOptions& options, int rank,
                                                   int world, int port) {
  std::map<std::string, std::string> env = options.env;
  const std::string r = std::to_string(rank), w = std::to_string(world);
  for (auto& [key, value] : TorchrunEnvironment({r, r, w, w, "127.0.0.1", std::to_string(port)}))
    env[key] = value;
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

absl::StatusOr<std::vector<ProcessOptions>> RankProcesses(const RunnerOptions& options,
                                                          const std::string& dir, int world,
                                                          bool rank_env) {
  int port = 0;
  if (rank_env) {
    absl::StatusOr<int> free = FreePort();
    if (!free.ok()) return free.status();
    port = *free;
  }
  std::shared_ptr<const NetworkSandbox> sandbox;
  if (options.offline) {
    absl::StatusOr<std::shared_ptr<const NetworkSandbox>> made = NetworkSandbox::Create();
    if (!made.ok()) return made.status();
    sandbox = *std::move(made);
  }
  std::vector<ProcessOptions> processes(world);
  for (int rank = 0; rank < world; ++rank) {
    ProcessOptions& process = processes[rank];
    process.cwd = dir;
    process.pass_env = options.pass_env;
    process.network = sandbox;
    process.env = rank_env ? RankEnvironment(options, rank, world, port) : options.env;
    process.time_limit_seconds = options.time_limit_seconds;
    process.memory_limit_bytes = options.memory_limit_bytes;
  }
  return processes;
}

std::vector<RankResult> LaunchWithGrace(std::vector<ProcessOptions>& processes,
                                        const RankStarter& start, const std::atomic<bool>* cancel,
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
      slots[rank].result = start(processes[rank]);
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
    if (first_failure &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - *first_failure).count() >
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

}  // namespace smallfix
