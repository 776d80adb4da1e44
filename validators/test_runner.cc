#include "validators/test_runner.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/base/concat.h"
#include "engine/base/read_file.h"
#include "engine/base/temp_dir.h"
#include "validators/junit_reader.h"
#include "validators/process.h"
#include "validators/pytest_command.h"

namespace smallfix {
namespace {

namespace fs = std::filesystem;

// How long the other ranks may go on after one rank failed, before they are stopped (a
// rank waiting in a collective for a dead peer would otherwise wait for its full timeout).
constexpr double kRankGraceSeconds = 5;

// Failed test names a summary lists.
constexpr size_t kNamesInSummary = 3;

using RankResult = absl::StatusOr<ProcessResult>;

// Environment: torchrun's contract for rank `rank` of `world`, over `options.env`.
std::map<std::string, std::string> RankEnvironment(const RunnerOptions& options, int rank, int world, int port) {
  std::map<std::string, std::string> env = options.env;
  env["RANK"] = std::to_string(rank);
  env["LOCAL_RANK"] = std::to_string(rank);
  env["WORLD_SIZE"] = std::to_string(world);
  env["LOCAL_WORLD_SIZE"] = std::to_string(world);
  env["MASTER_ADDR"] = "127.0.0.1";
  env["MASTER_PORT"] = std::to_string(port);
  env["TORCHELASTIC_RUN_ID"] = "smallfix";
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

// The JUnit report rank `rank` writes into `dir`.
std::string JUnitPath(const std::string& dir, int rank) { return absl::StrFormat("%s/rank%d.xml", dir, rank); }

// JUnit collection: every rank's report counted into `tally`; false when one is missing or
// unreadable (a crash before pytest wrote it).
bool CollectJUnit(const std::string& dir, int world, CaseTally& tally) {
  bool complete = true;
  for (int rank = 0; rank < world; ++rank) {
    absl::StatusOr<std::string> xml = ReadFile(JUnitPath(dir, rank));
    absl::StatusOr<std::vector<JUnitCase>> cases =
        xml.ok() ? ReadJUnit(*xml) : absl::StatusOr<std::vector<JUnitCase>>(xml.status());
    if (!cases.ok()) {
      complete = false;
      continue;
    }
    TallyCases(*cases, tally);
  }
  return complete;
}

// The ranks' output, each line prefixed with its rank the way launchers print (one rank:
// as it is).
std::string JoinOutput(const std::vector<RankResult>& results) {
  if (results.size() == 1) return results[0]->output;
  std::string out;
  for (size_t rank = 0; rank < results.size(); ++rank) {
    const std::string& output = results[rank]->output;
    size_t begin = 0;
    while (begin < output.size()) {
      size_t end = output.find('\n', begin);
      if (end == std::string::npos) end = output.size();
      out += Concat("[rank", std::to_string(rank), "]:", std::string_view(output).substr(begin, end - begin), "\n");
      begin = end + 1;
    }
  }
  return out;
}

// Summary: the one line a report shows for the run.
std::string Summarize(const TestRun& run, bool pytest, bool junit_complete, const std::vector<std::string>& failed,
                      const std::vector<RankResult>& results, double time_limit_seconds) {
  if (run.cancelled) return "cancelled";
  if (run.timed_out) return absl::StrFormat("timed out after %.0f s (killed)", time_limit_seconds);
  if (run.passed) return pytest ? absl::StrFormat("%d passed", run.tests) : "exit 0";
  if (pytest && run.failures > 0) {
    const std::vector<std::string> names(failed.begin(), failed.begin() + std::min(failed.size(), kNamesInSummary));
    return absl::StrFormat("%d failed of %d (%s)", run.failures, run.tests, absl::StrJoin(names, ", "));
  }
  if (pytest && run.tests == 0 && junit_complete) return "no test ran";
  for (const RankResult& result : results) {
    if (result->ok()) continue;
    if (result->term_signal) return absl::StrFormat("killed by signal %d", result->term_signal);
    return absl::StrFormat("exit %d", result->exit_code);
  }
  return "exit 0";
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
      if (pytest) process.shell_command += " --junitxml=" + JUnitPath(scratch->path(), rank);
      process.cwd = dir;
      process.env = rank_env_ ? RankEnvironment(options_, rank, world_, port) : options_.env;
      process.time_limit_seconds = options_.time_limit_seconds;
      process.memory_limit_bytes = options_.memory_limit_bytes;
    }

    const auto start = std::chrono::steady_clock::now();
    TestRun out;
    const std::vector<RankResult> results = LaunchWithGrace(processes, options_.cancel, &out.cancelled);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    bool all_exit_zero = true;
    for (const RankResult& result : results) {
      if (!result.ok()) return result.status();
      all_exit_zero &= result->ok();
      out.timed_out |= result->timed_out;
    }
    out.output = JoinOutput(results);
    CaseTally tally;
    const bool junit_complete = pytest && CollectJUnit(scratch->path(), world_, tally);
    out.tests = pytest ? tally.tests : -1;
    out.failures = tally.failures;
    out.passed = all_exit_zero && !out.timed_out && !out.cancelled &&
                 (!pytest || (junit_complete && out.tests > 0 && out.failures == 0));
    out.summary = Summarize(out, pytest, junit_complete, tally.failed, results, options_.time_limit_seconds);
    return out;
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
  }
  return "local";
}

std::optional<RunnerKind> ParseRunnerKind(std::string_view name) {
  for (RunnerKind kind : {RunnerKind::kLocal, RunnerKind::kTorchrun}) {
    if (RunnerKindName(kind) == name) return kind;
  }
  return std::nullopt;
}

std::unique_ptr<TestRunner> MakeTestRunner(RunnerKind kind, const RunnerOptions& options) {
  switch (kind) {
    case RunnerKind::kTorchrun:
      return std::make_unique<RankRunner>(options, std::max(1, options.world_size), /*rank_env=*/true);
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
