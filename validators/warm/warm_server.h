#ifndef SMALLFIX_VALIDATORS_WARM_WARM_SERVER_H_
#define SMALLFIX_VALIDATORS_WARM_WARM_SERVER_H_

#include <sys/types.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "validators/process/process.h"
#include "validators/process/python_env.h"
#include "validators/warm/warm_command.h"

namespace smallfix {

// validators/warm/warm_server.py: $SMALLFIX_WARM_SERVER, else the one beside the running binary's
// source tree (build/smallfix -> validators/), else the one in the source tree it was built from.
std::string DefaultWarmServerScript();

struct WarmServerOptions {
  std::string interpreter = DefaultInterpreter();
  std::string script;                      // "" for DefaultWarmServerScript()
  std::map<std::string, std::string> env;  // over the inherited environment, like a cold run's
  std::vector<std::string> pass_env;       // secret-looking names it inherits (child_env.h)
  std::string dir;                         // holds the socket and the server's log; must exist
  double start_timeout_seconds = 120;      // import torch on a loaded machine
  std::string preload;                     // "" for the server's list; "a,b" for these modules
};

// One pytest run in the server: `command` in `process.cwd` with `process.env`, its time limit,
// memory limit, grace, cancel flag and network sandbox, which the test process joins
// (process.argv, shell_command and pass_env are ignored: the server's environment is set once).
// Output goes to `output_file` and comes back as ProcessResult::output (its tail).
struct WarmRequest {
  WarmCommand command;
  ProcessOptions process;
  std::string output_file;
};

// The warm validation server of one repair (validators/warm/warm_server.py): started once with the
// project's interpreter, it preloads torch and forks a fresh process per test run. Start does
// not wait for it; the first Run does (reproduction overlaps with the server's start-up and
// with candidate generation). Every failure to start or reach it is an error of Run, after
// which it counts as failed() and callers run cold (warm_runner.h). Thread-safe.
class WarmServer {
 public:
  static absl::StatusOr<std::unique_ptr<WarmServer>> Start(const WarmServerOptions& options);
  ~WarmServer();  // ends the server and every run it still has (its process group)
  WarmServer(const WarmServer&) = delete;
  WarmServer& operator=(const WarmServer&) = delete;

  absl::StatusOr<ProcessResult> Run(const WarmRequest& request);

  const std::string& interpreter() const { return options_.interpreter; }
  bool failed() const;
  // Why runs went cold, once ("the warm server did not start (...); test runs were cold").
  std::vector<std::string> Notes() const;
  // For tests: the server's process id (its process group), 0 before it started.
  pid_t pid() const { return pid_; }
  // Waits until it is ready (or failed); the outcome of its start-up. A set `cancel` ends the
  // wait with a Cancelled error (the server is not failed by it): Ctrl-C during the server's
  // start-up, which takes seconds under load, must not wait for `import torch`.
  absl::Status WaitReady(const std::atomic<bool>* cancel = nullptr);

 private:
  explicit WarmServer(WarmServerOptions options) : options_(std::move(options)) {}
  void Fail(const std::string& why);
  bool Exited();

  WarmServerOptions options_;
  std::string socket_path_;
  pid_t pid_ = 0;
  int stdin_fd_ = -1;         // its stdin: the server exits when this closes
  int stdout_fd_ = -1;        // it says "ready" here
  std::mutex ready_mutex_;    // held while waiting for "ready"
  mutable std::mutex mutex_;  // the fields below
  bool ready_ = false;
  bool failed_ = false;
  bool reaped_ = false;
  std::string note_;
};

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_WARM_WARM_SERVER_H_
