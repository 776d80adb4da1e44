#include "validators/warm/warm_server.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "engine/base/concat.h"
#include "engine/base/data_path.h"
#include "nlohmann/json.hpp"
#include "validators/process/network_sandbox.h"

namespace smallfix {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Beyond a run's own limit and grace, how long the supervisor may take to answer before the
// run counts as timed out here (it enforces the limit itself; this only guards against a
// supervisor that was stopped or starved).
constexpr double kAnswerSlackSeconds = 30;

// The last line of the server's log (why it did not start: a missing module, a bad path).
std::string LastLogLine(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line)) {
    if (!line.empty()) last = line;
  }
  return last.size() > 300 ? last.substr(0, 300) : last;
}

std::string TailOfFile(const std::string& path, size_t limit, bool* truncated) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::string out = text.str();
  *truncated = out.size() > limit;
  return *truncated ? out.substr(out.size() - limit) : out;
}

// The run as the server reads it: one JSON object on one line.
std::string RequestLine(const WarmRequest& request) {
  const ProcessOptions& process = request.process;
  nlohmann::json message = {
      {"cwd", process.cwd},
      {"mode", request.command.mode},
      {"args", request.command.args},
      {"env", process.env},
      {"output", request.output_file},
      {"time_limit", process.time_limit_seconds},
      {"grace", process.kill_grace_seconds},
      {"memory_limit", process.memory_limit_bytes},
      {"namespaces",
       process.network != nullptr ? process.network->Paths() : std::vector<std::string>{}}};
  return message.dump() + "\n";
}

// Sends all of `line`; false when the server closed the connection first. MSG_NOSIGNAL: a
// closed socket must be an answer here, not a SIGPIPE that ends smallfix.
bool SendAll(int fd, const std::string& line) {
  for (size_t sent = 0; sent < line.size();) {
    const ssize_t n = ::send(fd, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += n;
  }
  return true;
}

}  // namespace

std::string DefaultWarmServerScript() {
  return FindData("SMALLFIX_WARM_SERVER", "validators/warm/warm_server.py",
                  "validators/warm/warm_server.py", SMALLFIX_WARM_SERVER_SCRIPT);
}

absl::StatusOr<std::unique_ptr<WarmServer>> WarmServer::Start(const WarmServerOptions& options) {
  std::unique_ptr<WarmServer> server(new WarmServer(options));
  WarmServerOptions& o = server->options_;
  if (o.script.empty()) o.script = DefaultWarmServerScript();
  std::error_code error;
  if (!fs::is_regular_file(o.script, error)) {
    return absl::NotFoundError(Concat("the warm server ", o.script, " is missing"));
  }
  if (!fs::exists(o.interpreter, error)) {
    return absl::NotFoundError(Concat("the Python interpreter ", o.interpreter, " does not exist"));
  }
  server->socket_path_ = Concat(o.dir, "/warm.sock");
  if (server->socket_path_.size() >= sizeof(sockaddr_un{}.sun_path)) {
    return absl::InvalidArgumentError(
        Concat("the socket path ", server->socket_path_, " is too long"));
  }
  const std::string log = Concat(o.dir, "/warm-server.log");

  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0) return absl::ResourceExhaustedError("cannot create a pipe");
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]);
    ::close(in[1]);
    return absl::ResourceExhaustedError("cannot create a pipe");
  }
  std::vector<std::string> args = {o.interpreter, o.script, server->socket_path_};
  if (!o.preload.empty()) args.push_back(o.preload);
  std::vector<std::string> environment = BuildEnvironment(o.env, o.pass_env);
  std::vector<char*> argv = Pointers(args);
  std::vector<char*> envp = Pointers(environment);

  // Its own process group (ended whole), default signals, stdin/stdout our pipes, stderr the log;
  // its working directory is `dir`, so no repo is on its sys.path.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addchdir_np(&actions, o.dir.c_str());
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attributes, &all);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  pid_t pid = 0;
  const int spawned =
      ::posix_spawn(&pid, o.interpreter.c_str(), &actions, &attributes, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(in[0]);
  ::close(out[1]);
  if (spawned != 0) {
    ::close(in[1]);
    ::close(out[0]);
    return absl::InternalError(Concat("cannot start the warm server: ", std::strerror(spawned)));
  }
  server->pid_ = pid;
  server->stdin_fd_ = in[1];
  server->stdout_fd_ = out[0];
  return server;
}

WarmServer::~WarmServer() {
  if (stdin_fd_ >= 0) ::close(stdin_fd_);
  if (stdout_fd_ >= 0) ::close(stdout_fd_);
  if (pid_ <= 0) return;
  // Its supervisors share its group; each takes its test's group along on SIGTERM.
  ::kill(-pid_, SIGTERM);
  const Clock::time_point start = Clock::now();
  while (!Exited() && Since(start) < 2) ::usleep(20000);
  ::kill(-pid_, SIGKILL);
  if (!reaped_) {
    int status;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

bool WarmServer::Exited() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (reaped_) return true;
  int status;
  if (::waitpid(pid_, &status, WNOHANG) == pid_) reaped_ = true;
  return reaped_;
}

bool WarmServer::failed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failed_;
}

std::vector<std::string> WarmServer::Notes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (note_.empty()) return {};
  return {note_};
}

void WarmServer::Fail(const std::string& why) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (failed_) return;
  failed_ = true;
  note_ = Concat(why, "; test runs from then on were cold (as with --cold)");
}

absl::Status WarmServer::WaitReady(const std::atomic<bool>* cancel) {
  std::lock_guard<std::mutex> wait(ready_mutex_);
  if (failed()) return absl::UnavailableError(Notes().front());
  if (ready_) return absl::OkStatus();
  const Clock::time_point start = Clock::now();
  std::string said;
  while (said.find("ready\n") == std::string::npos) {
    if (cancel != nullptr && cancel->load())
      return absl::CancelledError("cancelled while the warm server started");
    if (Since(start) > options_.start_timeout_seconds) {
      Fail(Concat("the warm server did not start within ",
                  std::to_string(static_cast<int>(options_.start_timeout_seconds)), " s"));
      return absl::UnavailableError(Notes().front());
    }
    pollfd poll_fd{stdout_fd_, POLLIN, 0};
    if (::poll(&poll_fd, 1, 100) > 0) {
      char buffer[256];
      const ssize_t got = ::read(stdout_fd_, buffer, sizeof buffer);
      if (got > 0) {
        said.append(buffer, got);
        continue;
      }
      if (got == 0 || errno != EINTR) {
        // EOF before "ready": it exited; its log says why.
        const std::string why = LastLogLine(Concat(options_.dir, "/warm-server.log"));
        Fail(Concat("the warm server did not start", why.empty() ? "" : Concat(" (", why, ")")));
        return absl::UnavailableError(Notes().front());
      }
    }
  }
  ready_ = true;
  return absl::OkStatus();
}

absl::StatusOr<ProcessResult> WarmServer::Run(const WarmRequest& request) {
  if (absl::Status ready = WaitReady(request.process.cancel); !ready.ok()) return ready;
  const ProcessOptions& process = request.process;
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return absl::ResourceExhaustedError("cannot open a unix socket");
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, socket_path_.c_str(), sizeof(address.sun_path) - 1);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    const int saved = errno;
    ::close(fd);
    Fail(Concat("the warm server stopped answering (", std::strerror(saved), ")"));
    return absl::UnavailableError(Notes().front());
  }
  const Clock::time_point start = Clock::now();
  if (!SendAll(fd, RequestLine(request))) {
    ::close(fd);
    Fail("the warm server stopped answering (it closed a connection)");
    return absl::UnavailableError(Notes().front());
  }

  // Answers: {"pid": N}, then the outcome. Cancelling is closing our side for writing.
  const double limit =
      process.time_limit_seconds > 0
          ? process.time_limit_seconds + process.kill_grace_seconds + kAnswerSlackSeconds
          : 0;
  std::string received;
  std::optional<nlohmann::json> outcome;
  bool cancel_sent = false, gave_up = false;
  while (!outcome) {
    if (!cancel_sent && process.cancel != nullptr && process.cancel->load()) {
      ::shutdown(fd, SHUT_WR);
      cancel_sent = true;
    }
    if (limit > 0 && Since(start) > limit) {
      gave_up = true;
      break;
    }
    pollfd poll_fd{fd, POLLIN, 0};
    if (::poll(&poll_fd, 1, 50) <= 0) continue;
    char buffer[4096];
    const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    received.append(buffer, got);
    for (size_t end; (end = received.find('\n')) != std::string::npos; received.erase(0, end + 1)) {
      nlohmann::json answer =
          nlohmann::json::parse(received.substr(0, end), nullptr, /*allow_exceptions=*/false);
      if (answer.is_object() && answer.contains("exit_code")) outcome = std::move(answer);
    }
  }
  ::close(fd);  // a supervisor still waiting sees EOF and ends the run
  ProcessResult result;
  result.seconds = Since(start);
  if (gave_up) {
    result.timed_out = true;
  } else if (!outcome) {
    Fail("the warm server lost a run (its supervisor ended without an answer)");
    return absl::UnavailableError(Notes().front());
  } else {
    result.exit_code = outcome->value("exit_code", -1);
    result.term_signal = outcome->value("signal", 0);
    result.timed_out = outcome->value("timed_out", false);
    result.cancelled = outcome->value("cancelled", false) || cancel_sent;
  }
  result.output = TailOfFile(request.output_file, std::max<size_t>(process.output_limit_bytes, 1),
                             &result.output_truncated);
  return result;
}

}  // namespace smallfix
