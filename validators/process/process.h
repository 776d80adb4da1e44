#ifndef SMALLFIX_VALIDATORS_PROCESS_PROCESS_H_
#define SMALLFIX_VALIDATORS_PROCESS_PROCESS_H_

#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace smallfix {

class NetworkSandbox;

struct ProcessOptions {
  // Either argv (argv[0] is looked up on PATH) or a shell command run with /bin/sh -c.
  std::vector<std::string> argv;
  std::string shell_command;
  std::string cwd;                         // "" keeps the current directory
  std::map<std::string, std::string> env;  // added to (or overriding) the inherited one
  // Inherited variables that look secret (child_env.h) are withheld unless named here.
  std::vector<std::string> pass_env;
  // When set, the child joins this network namespace (loopback only) before it execs.
  std::shared_ptr<const NetworkSandbox> network;
  double time_limit_seconds = 0;                // 0: no limit
  double kill_grace_seconds = 2;                // SIGTERM, then this long, then SIGKILL
  size_t output_limit_bytes = size_t{1} << 20;  // the tail of the output is kept
  size_t memory_limit_bytes = 0;                // RLIMIT_AS of the child; 0: no limit
  std::string stdin_text;                       // written to the child's stdin, then closed
  // When set and it becomes true (Ctrl-C, or another rank failed), the group is stopped
  // like a timeout and the result says cancelled.
  const std::atomic<bool>* cancel = nullptr;
};

struct ProcessResult {
  int exit_code = -1;      // the exit status when the child exited, else -1
  int term_signal = 0;     // the signal that ended the child, else 0
  bool timed_out = false;  // the time limit passed and the process group was killed
  bool cancelled = false;  // options.cancel asked to stop and the group was killed
  std::string output;      // stdout and stderr interleaved as written, tail only
  bool output_truncated = false;
  double seconds = 0;

  bool ok() const { return exit_code == 0 && !timed_out && !cancelled; }
};

// For execve/posix_spawn: "KEY=VALUE" strings of the inherited environment without the
// secrets (ChildEnvironment, child_env.h; `pass` lets names through) with `extra` applied
// (extra wins), and the null-terminated pointer array of `strings` (which must outlive it).
std::vector<std::string> BuildEnvironment(const std::map<std::string, std::string>& extra,
                                          const std::vector<std::string>& pass);
std::vector<char*> Pointers(std::vector<std::string>& strings);

// Runs a process the way smallfix runs every process: in its own process group, with its
// output captured (stdout and stderr together, the last output_limit_bytes kept), and with
// a time limit after which the whole group is killed (SIGTERM, a grace period, SIGKILL) and
// the result says timed_out. When the child exits, anything it left running in its group
// (a daemon holding the pipe open) is killed too, so RunProcess never hangs on a pipe.
// No zombies and no file descriptors are left behind; interrupted system calls are retried.
// The group's leader is a small supervisor (a fork of this process that runs no code but
// waits) with the command as its child: when this process is killed outright it kills the
// group, so nothing outlives smallfix; it exits with the command's status or signal.
//
// Errors are only for not being able to start: a missing program, a bad cwd, no fork.
// A non-zero exit, a signal or a timeout is a result, not an error.
absl::StatusOr<ProcessResult> RunProcess(const ProcessOptions& options);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_PROCESS_PROCESS_H_
