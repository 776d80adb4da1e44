#include "validators/test_runner.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/read_file.h"
#include "validators/junit_reader.h"
#include "validators/process.h"

namespace smallfix {
namespace {

namespace fs = std::filesystem;

// How long the other ranks may go on after one rank failed, before they are stopped (a
// rank waiting in a collective for a dead peer would otherwise wait for its full timeout).
constexpr double kRankGraceSeconds = 5;

bool IsPytest(const std::string& command) { return command.find("pytest") != std::string::npos; }

struct RankRun {
  absl::StatusOr<ProcessResult> result = absl::UnknownError("not run");
  std::atomic<bool> done{false};
};

}  // namespace

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

absl::StatusOr<TestRun> RunTestCommand(const std::string& dir, const std::string& command,
                                       const RunnerOptions& options) {
  static std::atomic<int> counter{0};
  const int world = options.kind == "torchrun" ? std::max(1, options.world_size) : 1;
  const bool pytest = IsPytest(command);
  std::error_code error;
  const fs::path scratch = fs::temp_directory_path() /
                           absl::StrFormat("smallfix-run-%d-%d", getpid(), counter.fetch_add(1));
  fs::create_directories(scratch, error);
  struct Cleanup {
    fs::path path;
    ~Cleanup() {
      std::error_code ignored;
      fs::remove_all(path, ignored);
    }
  } cleanup{scratch};

  int port = 0;
  if (options.kind == "torchrun") {
    absl::StatusOr<int> free = FreePort();
    if (!free.ok()) return free.status();
    port = *free;
  }
  std::vector<ProcessOptions> processes(world);
  for (int rank = 0; rank < world; ++rank) {
    ProcessOptions& process = processes[rank];
    process.shell_command = command;
    if (pytest) {
      process.shell_command += absl::StrFormat(" --junitxml=%s", (scratch / absl::StrFormat("rank%d.xml", rank)).string());
    }
    process.cwd = dir;
    process.env = options.env;
    process.time_limit_seconds = options.time_limit_seconds;
    process.memory_limit_bytes = options.memory_limit_bytes;
    if (options.kind == "torchrun") {
      process.env["RANK"] = std::to_string(rank);
      process.env["LOCAL_RANK"] = std::to_string(rank);
      process.env["WORLD_SIZE"] = std::to_string(world);
      process.env["LOCAL_WORLD_SIZE"] = std::to_string(world);
      process.env["MASTER_ADDR"] = "127.0.0.1";
      process.env["MASTER_PORT"] = std::to_string(port);
      process.env["TORCHELASTIC_RUN_ID"] = "smallfix";
      if (!options.gpus.empty()) {
        // Rank r gets the r-th listed device.
        std::vector<std::string> devices;
        for (size_t start = 0; start <= options.gpus.size();) {
          size_t end = options.gpus.find(',', start);
          if (end == std::string::npos) end = options.gpus.size();
          devices.push_back(options.gpus.substr(start, end - start));
          start = end + 1;
        }
        process.env["CUDA_VISIBLE_DEVICES"] = devices[rank % devices.size()];
      }
    }
  }

  // Every rank in its own thread; this thread watches for Ctrl-C and failed ranks.
  std::atomic<bool> stop{false};
  std::vector<RankRun> runs(world);
  std::vector<std::thread> threads;
  for (int rank = 0; rank < world; ++rank) {
    processes[rank].cancel = &stop;
    threads.emplace_back([&, rank] {
      runs[rank].result = RunProcess(processes[rank]);
      runs[rank].done = true;
    });
  }
  const auto start = std::chrono::steady_clock::now();
  std::optional<std::chrono::steady_clock::time_point> first_failure;
  bool cancelled = false;
  for (;;) {
    bool all_done = true;
    for (RankRun& run : runs) {
      if (!run.done) {
        all_done = false;
      } else if (!first_failure && (!run.result.ok() || !run.result->ok())) {
        first_failure = std::chrono::steady_clock::now();
      }
    }
    if (all_done) break;
    if (options.cancel != nullptr && options.cancel->load()) {
      cancelled = true;
      stop = true;
    }
    if (first_failure && std::chrono::duration<double>(std::chrono::steady_clock::now() - *first_failure).count() >
                             kRankGraceSeconds) {
      stop = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  for (std::thread& thread : threads) thread.join();

  TestRun out;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.cancelled = cancelled;
  bool all_exit_zero = true;
  std::vector<std::string> failed_names;
  out.tests = pytest ? 0 : -1;
  bool junit_missing = false;
  for (int rank = 0; rank < world; ++rank) {
    if (!runs[rank].result.ok()) return runs[rank].result.status();
    const ProcessResult& result = *runs[rank].result;
    all_exit_zero &= result.ok();
    out.timed_out |= result.timed_out;
    if (world == 1) {
      out.output = result.output;
    } else {
      // Prefix each line with its rank, the way launchers print.
      size_t begin = 0;
      while (begin < result.output.size()) {
        size_t end = result.output.find('\n', begin);
        if (end == std::string::npos) end = result.output.size();
        out.output += Concat("[rank", std::to_string(rank), "]:",
                             std::string_view(result.output).substr(begin, end - begin), "\n");
        begin = end + 1;
      }
    }
    if (!pytest) continue;
    const fs::path xml = scratch / absl::StrFormat("rank%d.xml", rank);
    if (!fs::exists(xml, error)) {
      junit_missing = true;
      continue;
    }
    absl::StatusOr<std::vector<JUnitCase>> cases = ReadJUnit(ReadFile(xml.string()).value_or(""));
    if (!cases.ok()) {
      junit_missing = true;
      continue;
    }
    for (const JUnitCase& test : *cases) {
      if (test.outcome == JUnitCase::Outcome::kSkipped) continue;
      ++out.tests;
      if (test.outcome == JUnitCase::Outcome::kFailed || test.outcome == JUnitCase::Outcome::kError) {
        ++out.failures;
        if (failed_names.size() < 3) failed_names.push_back(test.name);
      }
    }
  }
  out.passed = all_exit_zero && !out.timed_out && !cancelled &&
               (!pytest || (!junit_missing && out.tests > 0 && out.failures == 0));
  if (cancelled) {
    out.summary = "cancelled";
  } else if (out.timed_out) {
    out.summary = absl::StrFormat("timed out after %.0f s (killed)", options.time_limit_seconds);
  } else if (out.passed) {
    out.summary = pytest ? absl::StrFormat("%d passed", out.tests) : "exit 0";
  } else if (pytest && out.failures > 0) {
    std::string names;
    for (const std::string& name : failed_names) names += (names.empty() ? "" : ", ") + name;
    out.summary = absl::StrFormat("%d failed of %d (%s)", out.failures, out.tests, names);
  } else if (pytest && out.tests == 0 && !junit_missing) {
    out.summary = "no test ran";
  } else {
    int code = 0;
    for (RankRun& run : runs) {
      if (!run.result->ok()) {
        code = run.result->term_signal ? -run.result->term_signal : run.result->exit_code;
        break;
      }
    }
    out.summary = code < 0 ? absl::StrFormat("killed by signal %d", -code) : absl::StrFormat("exit %d", code);
  }
  return out;
}

}  // namespace smallfix
