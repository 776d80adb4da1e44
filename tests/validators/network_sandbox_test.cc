#include "validators/process/network_sandbox.h"

#include <gmock/gmock.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <thread>

#include "validators/process/process.h"

namespace smallfix {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A server on the host's loopback, outside any sandbox: it listens and never accepts (the
// kernel completes connections into the backlog), so a connect() succeeds only from here.
class HostServer {
 public:
  HostServer() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        ::listen(fd_, 16) == 0 &&
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0)
      port_ = ntohs(address.sin_port);
  }
  ~HostServer() { ::close(fd_); }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

std::string ConnectCommand(int port) {
  return "/usr/bin/python3 -c \"import socket\ntry:\n socket.create_connection(('127.0.0.1', " +
         std::to_string(port) +
         "), timeout=3)\n print('connected')\nexcept OSError as e:\n print('refused', e)\"";
}

ProcessResult RunIn(const std::string& command, std::shared_ptr<const NetworkSandbox> sandbox) {
  ProcessOptions options;
  options.shell_command = command;
  options.time_limit_seconds = 30;
  options.network = std::move(sandbox);
  absl::StatusOr<ProcessResult> result = RunProcess(options);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result : ProcessResult{};
}

TEST(NetworkSandboxTest, OnlyLoopbackAndNoHostServer) {
  HostServer server;
  ASSERT_GT(server.port(), 0);
  absl::StatusOr<std::shared_ptr<const NetworkSandbox>> sandbox = NetworkSandbox::Create();
  ASSERT_TRUE(sandbox.ok()) << sandbox.status();
  // Outside: the server answers.
  EXPECT_THAT(RunIn(ConnectCommand(server.port()), nullptr).output, HasSubstr("connected"));
  // Inside: one interface, loopback, and it is up; the host's loopback server is out of reach.
  // (That it is up: the next test meets on it.)
  const ProcessResult links = RunIn("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '", *sandbox);
  EXPECT_TRUE(links.ok()) << links.output;
  EXPECT_EQ(links.output, "lo\n");
  const ProcessResult inside = RunIn(ConnectCommand(server.port()), *sandbox);
  EXPECT_THAT(inside.output, HasSubstr("refused"));
  EXPECT_THAT(inside.output, Not(HasSubstr("connected")));
}

// The ranks of one run share a sandbox: one listens on its loopback, another connects.
TEST(NetworkSandboxTest, ProcessesOfOneSandboxMeetOnItsLoopback) {
  absl::StatusOr<std::shared_ptr<const NetworkSandbox>> sandbox = NetworkSandbox::Create();
  ASSERT_TRUE(sandbox.ok()) << sandbox.status();
  const std::string listen =
      "/usr/bin/python3 -c \"import socket\ns = socket.create_server(('127.0.0.1', 29123))\n"
      "c, _ = s.accept()\nprint('accepted', c.recv(5).decode())\"";
  ProcessResult server;
  std::thread thread([&] { server = RunIn(listen, *sandbox); });
  const ProcessResult client = RunIn(
      "/usr/bin/python3 -c \"import socket, time\nfor i in range(100):\n try:\n  "
      "socket.create_connection(('127.0.0.1', 29123)).sendall(b'hello'); break\n except "
      "OSError: time.sleep(0.1)\"",
      *sandbox);
  thread.join();
  EXPECT_TRUE(client.ok()) << client.output;
  EXPECT_THAT(server.output, HasSubstr("accepted hello"));
}

// Without CAP_SYS_ADMIN (an ordinary user, CI's runners that are not root): a user namespace
// of our own makes the network namespace. Run as nobody in a forked child of this test.
TEST(NetworkSandboxTest, UnprivilegedUserGetsOneThroughAUserNamespace) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to become another user for the test";
  HostServer server;
  ASSERT_GT(server.port(), 0);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (::setgroups(0, nullptr) != 0 || ::setresgid(65534, 65534, 65534) != 0 ||
        ::setresuid(65534, 65534, 65534) != 0)
      ::_exit(10);
    // A process that changed its user is not dumpable, so its /proc files stay root's; one
    // started as that user is.
    ::prctl(PR_SET_DUMPABLE, 1);
    absl::StatusOr<std::shared_ptr<const NetworkSandbox>> sandbox = NetworkSandbox::Create();
    if (!sandbox.ok()) {  // the kernel forbids unprivileged user namespaces
      fprintf(stderr, "as nobody: %s\n", std::string(sandbox.status().message()).c_str());
      ::_exit(11);
    }
    if (!(*sandbox)->user_namespace()) ::_exit(12);
    ProcessOptions options;
    options.shell_command = ConnectCommand(server.port()) + "; id -u";
    options.cwd = "/";
    options.network = *sandbox;
    absl::StatusOr<ProcessResult> ran = RunProcess(options);
    if (!ran.ok()) ::_exit(13);
    const bool refused = ran->output.find("refused") != std::string::npos;
    const bool same_user = ran->output.find("65534") != std::string::npos;
    ::_exit(refused && same_user ? 0 : 14);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 11) GTEST_SKIP() << "unprivileged user namespaces are off here";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "10: setuid, 12: no user namespace, 13: run, 14: output";
}

TEST(NetworkSandboxTest, PathsNameThisProcessDescriptors) {
  absl::StatusOr<std::shared_ptr<const NetworkSandbox>> sandbox = NetworkSandbox::Create();
  ASSERT_TRUE(sandbox.ok()) << sandbox.status();
  const std::vector<std::string> paths = (*sandbox)->Paths();
  ASSERT_EQ(paths.size(), (*sandbox)->user_namespace() ? 2u : 1u);
  const std::string prefix = "/proc/" + std::to_string(::getpid()) + "/fd/";
  for (const std::string& path : paths) EXPECT_THAT(path, testing::StartsWith(prefix));
}

TEST(NetworkSandboxTest, PolicyThatWantsNoSandboxProbesNothing) {
  std::vector<std::string> notes;
  const NetworkPolicy online{.candidates = true, .reproduction = true};
  const NetworkPolicy resolved = ResolveNetworkPolicy(online, notes);
  EXPECT_TRUE(resolved.candidates && resolved.reproduction);
  EXPECT_TRUE(notes.empty());
  const NetworkPolicy offline = ResolveNetworkPolicy(NetworkPolicy{}, notes);
  EXPECT_FALSE(offline.candidates);  // this machine makes sandboxes (the tests above)
  EXPECT_TRUE(notes.empty());
}

}  // namespace
}  // namespace smallfix
