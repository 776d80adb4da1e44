#include "validators/process/network_sandbox.h"

#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_format.h"

namespace smallfix {
namespace {

// What the helper tells its parent: the step that failed (kMade when none did) and its errno.
enum Step : int { kMade = 0, kUnshare, kMaps, kLoopback };
struct HelperReport {
  int step = kMade;
  int error = 0;
  int user = 0;  // a user namespace was made too
};

// The helper runs between fork and _exit in a child of a threaded process: system calls only.
bool WriteText(const char* path, const char* text) {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const ssize_t length = static_cast<ssize_t>(std::strlen(text));
  const bool ok = ::write(fd, text, length) == length;
  const int saved = errno;
  ::close(fd);
  errno = saved;
  return ok;
}

bool LoopbackUp() {
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  struct ifreq request;
  std::memset(&request, 0, sizeof request);
  std::memcpy(request.ifr_name, "lo", 3);
  bool ok = ::ioctl(fd, SIOCGIFFLAGS, &request) == 0;
  request.ifr_flags |= IFF_UP;
  ok = ok && ::ioctl(fd, SIOCSIFFLAGS, &request) == 0;
  const int saved = errno;
  ::close(fd);
  errno = saved;
  return ok;
}

// Makes the namespaces, says how it went, and holds them until the parent has opened them
// (it closes `hold_fd`'s other end).
[[noreturn]] void Helper(int report_fd, int hold_fd, const char* uid_map, const char* gid_map) {
  // Nothing else open: it must not hold its own hold pipe's write end (it would wait forever),
  // nor a pipe another thread waits on.
  const int low = std::min(report_fd, hold_fd), high = std::max(report_fd, hold_fd);
  ::syscall(SYS_close_range, 3u, static_cast<unsigned>(low - 1), 0u);
  ::syscall(SYS_close_range, static_cast<unsigned>(low + 1), static_cast<unsigned>(high - 1), 0u);
  ::syscall(SYS_close_range, static_cast<unsigned>(high + 1), ~0u, 0u);
  HelperReport report;
  if (::unshare(CLONE_NEWNET) != 0) {
    // Without CAP_SYS_ADMIN: a user namespace of our own grants it over a new network namespace.
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) {
      report = {kUnshare, errno, 0};
    } else {
      report.user = 1;
      if (!WriteText("/proc/self/setgroups", "deny") || !WriteText("/proc/self/uid_map", uid_map) ||
          !WriteText("/proc/self/gid_map", gid_map))
        report = {kMaps, errno, 1};
    }
  }
  if (report.step == kMade && !LoopbackUp()) report = {kLoopback, errno, report.user};
  ssize_t ignored = ::write(report_fd, &report, sizeof report);
  (void)ignored;
  char byte;
  while (::read(hold_fd, &byte, 1) < 0 && errno == EINTR) {
  }
  ::_exit(0);
}

std::string StepError(const HelperReport& report) {
  const char* what = report.step == kUnshare ? "cannot make a network namespace (unshare "
                                               "CLONE_NEWNET, and with CLONE_NEWUSER)"
                     : report.step == kMaps  ? "cannot map this user into a new user namespace"
                                            : "cannot bring loopback up in a new network namespace";
  return absl::StrFormat("%s: %s", what, std::strerror(report.error));
}

void CloseBoth(int fds[2]) {
  for (int i = 0; i < 2; ++i) {
    if (fds[i] >= 0) ::close(fds[i]);
    fds[i] = -1;
  }
}

}  // namespace

absl::StatusOr<std::shared_ptr<const NetworkSandbox>> NetworkSandbox::Create() {
  char uid_map[64], gid_map[64];
  std::snprintf(uid_map, sizeof uid_map, "%u %u 1\n", ::geteuid(), ::geteuid());
  std::snprintf(gid_map, sizeof gid_map, "%u %u 1\n", ::getegid(), ::getegid());
  int report_pipe[2] = {-1, -1}, hold_pipe[2] = {-1, -1};
  if (::pipe2(report_pipe, O_CLOEXEC) != 0 || ::pipe2(hold_pipe, O_CLOEXEC) != 0) {
    CloseBoth(report_pipe);
    CloseBoth(hold_pipe);
    return absl::ResourceExhaustedError("network sandbox: cannot create pipes");
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    CloseBoth(report_pipe);
    CloseBoth(hold_pipe);
    return absl::ResourceExhaustedError("network sandbox: cannot fork");
  }
  if (pid == 0) {
    ::close(report_pipe[0]);
    ::close(hold_pipe[1]);
    Helper(report_pipe[1], hold_pipe[0], uid_map, gid_map);
  }
  ::close(report_pipe[1]);
  ::close(hold_pipe[0]);
  HelperReport report;
  ssize_t got;
  do {
    got = ::read(report_pipe[0], &report, sizeof report);
  } while (got < 0 && errno == EINTR);
  int user_fd = -1, net_fd = -1;
  std::string error;
  if (got != static_cast<ssize_t>(sizeof report)) {
    error = "network sandbox: its helper process ended without a word";
  } else if (report.step != kMade) {
    error = StepError(report);
  } else {
    const std::string ns = absl::StrFormat("/proc/%d/ns/", pid);
    if (report.user) user_fd = ::open((ns + "user").c_str(), O_RDONLY | O_CLOEXEC);
    net_fd = ::open((ns + "net").c_str(), O_RDONLY | O_CLOEXEC);
    if (net_fd < 0 || (report.user && user_fd < 0))
      error = absl::StrFormat("network sandbox: cannot open %s: %s", ns, std::strerror(errno));
  }
  ::close(report_pipe[0]);
  ::close(hold_pipe[1]);  // the helper may go now
  int status;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!error.empty()) {
    if (user_fd >= 0) ::close(user_fd);
    if (net_fd >= 0) ::close(net_fd);
    return absl::FailedPreconditionError(error);
  }
  return std::shared_ptr<const NetworkSandbox>(new NetworkSandbox(user_fd, net_fd));
}

NetworkSandbox::~NetworkSandbox() {
  if (user_fd_ >= 0) ::close(user_fd_);
  if (net_fd_ >= 0) ::close(net_fd_);
}

int NetworkSandbox::Enter() const {
  if (user_fd_ >= 0 && ::setns(user_fd_, CLONE_NEWUSER) != 0) return errno;
  if (::setns(net_fd_, CLONE_NEWNET) != 0) return errno;
  return 0;
}

std::vector<std::string> NetworkSandbox::Paths() const {
  std::vector<std::string> out;
  for (int fd : {user_fd_, net_fd_}) {
    if (fd >= 0) out.push_back(absl::StrFormat("/proc/%d/fd/%d", ::getpid(), fd));
  }
  return out;
}

NetworkPolicy ResolveNetworkPolicy(NetworkPolicy wanted, std::vector<std::string>& notes) {
  if (wanted.candidates && wanted.reproduction) return wanted;
  absl::StatusOr<std::shared_ptr<const NetworkSandbox>> probe = NetworkSandbox::Create();
  if (probe.ok()) return wanted;
  notes.push_back(absl::StrFormat(
      "network: test runs kept the network: %s (--allow-network says this is wanted)",
      probe.status().message()));
  return NetworkPolicy{.candidates = true, .reproduction = true};
}

}  // namespace smallfix
