#include "validators/process/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "validators/process/child_env.h"
#include "validators/process/network_sandbox.h"

namespace smallfix {
namespace {

using Clock = std::chrono::steady_clock;

// Closes a descriptor once, retrying nothing: close() must not be retried on EINTR (Linux
// has already released the descriptor).
void CloseFd(int* fd) {
  if (*fd >= 0) {
    ::close(*fd);
    *fd = -1;
  }
}

// What the error pipe carries when exec was not reached: the errno, and whether it was
// joining the network sandbox that failed.
struct ExecFailure {
  int error = 0;
  int sandbox = 0;
};

void SetDisposition(int signal_number, void (*handler)(int)) {
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = handler;
  ::sigaction(signal_number, &action, nullptr);
}

// smallfix's pid as the supervisor saw it at fork (the supervisor's own copy of memory).
pid_t supervised_for = 0;

void KillGroupIfOrphaned(int) {
  if (::getppid() != supervised_for) ::kill(0, SIGKILL);  // the supervisor goes with it
}

// The group's leader is a supervisor that runs the command as its child and exits as the
// command did. It exists for one case: smallfix killed outright (SIGKILL, the OOM killer),
// which cannot stop its process groups; a test in a 10-minute soak, and whatever it started
// in its group, would outlive it. The kernel tells the supervisor (PR_SET_PDEATHSIG, sent
// when the thread that forked it ends: that thread waits for it, so it ends no earlier) and
// it kills the whole group. A signal to the group (a time limit, Ctrl-C) reaches the command
// itself; the supervisor ignores it and waits. Returns in the command's process only.
void Supervise(pid_t parent, int error_fd) {
  supervised_for = parent;
  SetDisposition(SIGHUP, KillGroupIfOrphaned);
  for (int signal_number : {SIGINT, SIGTERM, SIGQUIT, SIGPIPE})
    SetDisposition(signal_number, SIG_IGN);
  SetDisposition(SIGCHLD, SIG_DFL);
  sigset_t empty;
  sigemptyset(&empty);
  ::sigprocmask(SIG_SETMASK, &empty, nullptr);
  ::prctl(PR_SET_PDEATHSIG, SIGHUP);
  KillGroupIfOrphaned(0);  // smallfix ended before the signal was set up
  const pid_t command = ::fork();
  if (command == 0) return;
  if (command < 0) {
    const ExecFailure failure{errno, 0};
    ssize_t ignored = ::write(error_fd, &failure, sizeof(failure));
    (void)ignored;
    ::_exit(127);
  }
  // Nothing of smallfix's stays open here: the error pipe must reach EOF at the command's exec.
  if (::syscall(SYS_close_range, 0u, ~0u, 0u) != 0) {
    for (int fd = 0; fd < 65536; ++fd) ::close(fd);
  }
  int status = 0;
  while (::waitpid(command, &status, 0) < 0) {
    if (errno != EINTR) ::_exit(127);
  }
  if (WIFEXITED(status)) ::_exit(WEXITSTATUS(status));
  const int signal_number = WTERMSIG(status);
  SetDisposition(signal_number, SIG_DFL);
  ::kill(::getpid(), signal_number);
  ::_exit(128 + signal_number);
}

// Only async-signal-safe calls between fork and exec: the parent prepared everything.
[[noreturn]] void ExecChild(pid_t parent, int output_fd, int input_fd, int error_fd,
                            const char* cwd, const struct rlimit* memory,
                            const NetworkSandbox* network, char* const* argv, char* const* envp) {
  ::setpgid(0, 0);
  Supervise(parent, error_fd);
  // Default signal dispositions and an empty mask: a parent that blocks or ignores signals
  // must not pass that on to the test it runs.
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = SIG_DFL;
  for (int signal_number : {SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGCHLD, SIGHUP}) {
    ::sigaction(signal_number, &action, nullptr);
  }
  sigset_t empty;
  sigemptyset(&empty);
  ::sigprocmask(SIG_SETMASK, &empty, nullptr);
  ExecFailure failure;
  int& saved_errno = failure.error;
  if (::dup2(input_fd, STDIN_FILENO) < 0 || ::dup2(output_fd, STDOUT_FILENO) < 0 ||
      ::dup2(output_fd, STDERR_FILENO) < 0) {
    saved_errno = errno;
  } else if (network != nullptr && (saved_errno = network->Enter()) != 0) {
    failure.sandbox = 1;
  } else if (cwd != nullptr && ::chdir(cwd) != 0) {
    saved_errno = errno;
  } else if (memory != nullptr && ::setrlimit(RLIMIT_AS, memory) != 0) {
    saved_errno = errno;
  } else {
    // Every other inherited descriptor closes at exec, so the child cannot keep ours open
    // (CLOSE_RANGE_CLOEXEC = 4; older kernels get the same with fcntl, one descriptor at a
    // time). The error pipe stays usable until exec succeeds.
    if (::syscall(SYS_close_range, 3u, ~0u, 4u) != 0) {
      const long max_fd = std::min<long>(::sysconf(_SC_OPEN_MAX), 65536);
      for (int fd = 3; fd < max_fd; ++fd) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    ::execvpe(argv[0], argv, envp);
    saved_errno = errno;
  }
  // error_fd was closed by close_range only if exec was reached; it is CLOEXEC otherwise.
  ssize_t ignored = ::write(error_fd, &failure, sizeof(failure));
  (void)ignored;
  ::_exit(127);
}

// The run's three pipes: the command's output (stdout and stderr), its stdin, and the error
// pipe that says whether exec was reached. -1 marks an end already closed.
struct Pipes {
  int output[2] = {-1, -1};
  int input[2] = {-1, -1};
  int error[2] = {-1, -1};

  void CloseAll() {
    for (int* fd : {&output[0], &output[1], &input[0], &input[1], &error[0], &error[1]})
      CloseFd(fd);
  }
};

// Did exec work? The error pipe closes on exec (EOF: nothing here) or carries why not.
std::optional<ExecFailure> ReadExecFailure(int error_fd) {
  ExecFailure failure;
  ssize_t got;
  do {
    got = ::read(error_fd, &failure, sizeof(failure));
  } while (got < 0 && errno == EINTR);
  if (got == static_cast<ssize_t>(sizeof(failure))) return failure;
  return std::nullopt;
}

// The error for a command exec did not reach, naming the command (and where it was to run).
absl::Status ExecError(const ExecFailure& failure, const std::string& command,
                       const std::string& cwd) {
  if (failure.sandbox) {
    return absl::FailedPreconditionError(
        absl::StrFormat("cannot run '%s' without the network: joining its namespace failed: %s",
                        command, std::strerror(failure.error)));
  }
  return absl::NotFoundError(absl::StrFormat("cannot run '%s'%s: %s", command,
                                             cwd.empty() ? "" : " in " + cwd,
                                             std::strerror(failure.error)));
}

// stdin: written up front when small (pipes hold 64 KiB); non-blocking, so that a command that
// does not read it cannot stall the run: what does not fit is dropped.
void WriteStdin(int fd, const std::string& text) {
  if (text.empty()) return;
  ::fcntl(fd, F_SETFL, O_NONBLOCK);
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += n;
  }
}

// The output kept is its tail: up to twice `limit` while reading (so that it is trimmed
// rarely), `limit` at the end.
void KeepTail(size_t limit, bool final, ProcessResult& result) {
  std::string& buffer = result.output;
  if (buffer.size() > (final ? limit : 2 * limit)) {
    buffer.erase(0, buffer.size() - limit);
    result.output_truncated = true;
  }
}

Clock::duration Seconds(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// The signals a running command's group gets: SIGTERM at the time limit or when cancelled,
// SIGKILL once the grace after SIGTERM has passed.
class Stopper {
 public:
  Stopper(pid_t pid, const ProcessOptions& options, Clock::time_point start)
      : pid_(pid),
        options_(options),
        has_limit_(options.time_limit_seconds > 0),
        deadline_(start + Seconds(has_limit_ ? options.time_limit_seconds : 0)) {}

  // Sends what is due at `now`, marking the result timed out or cancelled with the SIGTERM.
  void SignalIfDue(Clock::time_point now, ProcessResult& result) {
    if (has_limit_ && !term_sent_ && now >= deadline_) {
      result.timed_out = true;
      Terminate(now);
    }
    if (!term_sent_ && options_.cancel != nullptr && options_.cancel->load()) {
      result.cancelled = true;
      Terminate(now);
    }
    if (term_sent_ && !kill_sent_ && now >= kill_at_) {
      ::kill(-pid_, SIGKILL);
      kill_sent_ = true;
    }
  }

  // How long to wait for output: 100 ms, or less when the deadline comes sooner.
  int WaitMs(Clock::time_point now) const {
    if (!has_limit_ || term_sent_) return 100;
    return static_cast<int>(std::clamp<long long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - now).count() + 1, 0,
        100));
  }

 private:
  void Terminate(Clock::time_point now) {
    ::kill(-pid_, SIGTERM);
    term_sent_ = true;
    kill_at_ = now + Seconds(options_.kill_grace_seconds);
  }

  const pid_t pid_;
  const ProcessOptions& options_;
  const bool has_limit_;
  const Clock::time_point deadline_;
  bool term_sent_ = false, kill_sent_ = false;
  Clock::time_point kill_at_{};
};

// Reads the command's output into `result` until it has exited and its output has closed, or
// for 200 ms after it exited (leftovers in its group may hold the pipe open), stopping it at its
// time limit or when cancelled. Returns its wait status.
int CollectOutput(pid_t pid, int output_fd, const ProcessOptions& options, Clock::time_point start,
                  size_t limit, ProcessResult& result) {
  Stopper stopper(pid, options, start);
  bool reaped = false, eof = false;
  Clock::time_point drain_until{};
  int status = 0;
  char chunk[64 << 10];
  while (!reaped || !eof) {
    const Clock::time_point now = Clock::now();
    if (!reaped) {
      pid_t waited;
      do {
        waited = ::waitpid(pid, &status, WNOHANG);
      } while (waited < 0 && errno == EINTR);
      if (waited == pid) {
        reaped = true;
        // Leftovers in the group may hold the pipe open: read what is already there for a
        // moment, then kill them and stop.
        drain_until = now + std::chrono::milliseconds(200);
      }
    }
    if (reaped && !eof && now >= drain_until) break;
    if (!reaped) stopper.SignalIfDue(now, result);
    if (eof) {  // output closed but the child still runs: just wait for it
      struct timespec pause = {0, 20'000'000};
      ::nanosleep(&pause, nullptr);
      continue;
    }
    struct pollfd descriptor = {output_fd, POLLIN, 0};
    const int ready = ::poll(&descriptor, 1, reaped ? 20 : stopper.WaitMs(now));
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (ready == 0) continue;
    const ssize_t n = ::read(output_fd, chunk, sizeof(chunk));
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      eof = true;
    } else if (n == 0) {
      eof = true;
    } else {
      result.output.append(chunk, n);
      KeepTail(limit, /*final=*/false, result);
    }
  }
  return status;
}

}  // namespace

std::vector<std::string> BuildEnvironment(const std::map<std::string, std::string>& extra,
                                          const std::vector<std::string>& pass) {
  return ChildEnvironment(OwnEnvironment(), extra, pass);
}

std::vector<char*> Pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

absl::StatusOr<ProcessResult> RunProcess(const ProcessOptions& options) {
  std::vector<std::string> args = options.argv;
  if (!options.shell_command.empty()) args = {"/bin/sh", "-c", options.shell_command};
  if (args.empty()) return absl::InvalidArgumentError("no command to run");
  std::vector<std::string> environment = BuildEnvironment(options.env, options.pass_env);
  std::vector<char*> argv = Pointers(args);
  std::vector<char*> envp = Pointers(environment);
  struct rlimit memory = {options.memory_limit_bytes, options.memory_limit_bytes};

  Pipes pipes;
  if (::pipe2(pipes.output, O_CLOEXEC) != 0 || ::pipe2(pipes.input, O_CLOEXEC) != 0 ||
      ::pipe2(pipes.error, O_CLOEXEC) != 0) {
    const int saved = errno;
    pipes.CloseAll();
    return absl::ResourceExhaustedError(
        absl::StrFormat("cannot create pipes: %s", std::strerror(saved)));
  }
  const Clock::time_point start = Clock::now();
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int saved = errno;
    pipes.CloseAll();
    return absl::ResourceExhaustedError(absl::StrFormat("cannot fork: %s", std::strerror(saved)));
  }
  if (pid == 0) {
    // The child gets the write end of the output pipe, the read end of stdin's pipe and
    // the write end of the error pipe; the others are CLOEXEC and go away at exec.
    ExecChild(parent, pipes.output[1], pipes.input[0], pipes.error[1],
              options.cwd.empty() ? nullptr : options.cwd.c_str(),
              options.memory_limit_bytes > 0 ? &memory : nullptr, options.network.get(),
              argv.data(), envp.data());
  }
  ::setpgid(pid, pid);  // also here, so that kill(-pid) works before the child runs
  CloseFd(&pipes.output[1]);
  CloseFd(&pipes.input[0]);
  CloseFd(&pipes.error[1]);

  const std::optional<ExecFailure> failure = ReadExecFailure(pipes.error[0]);
  CloseFd(&pipes.error[0]);
  if (failure) {
    int status;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    pipes.CloseAll();
    return ExecError(*failure, args[0], options.cwd);
  }
  WriteStdin(pipes.input[1], options.stdin_text);
  CloseFd(&pipes.input[1]);

  ProcessResult result;
  const size_t limit = std::max<size_t>(options.output_limit_bytes, 1);
  const int status = CollectOutput(pid, pipes.output[0], options, start, limit, result);
  // Nothing of the run may outlive it.
  ::kill(-pid, SIGKILL);
  CloseFd(&pipes.output[0]);
  KeepTail(limit, /*final=*/true, result);

  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace smallfix
