#ifndef SMALLFIX_VALIDATORS_PROCESS_NETWORK_SANDBOX_H_
#define SMALLFIX_VALIDATORS_PROCESS_NETWORK_SANDBOX_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace smallfix {

// Which runs of project code may reach the network. A candidate may be written from untrusted
// text (an issue, a model's answer), so by default it runs offline; the reproduction runs the
// user's own unchanged code and keeps the network unless asked (--no-network).
struct NetworkPolicy {
  bool candidates = false;   // --allow-network
  bool reproduction = true;  // false with --no-network (also the coverage run)
};

// A network namespace of its own whose only interface is loopback, up: processes in it reach
// each other over 127.0.0.1 (the ranks of one test run rendezvous there) and nothing else, not
// even a server on the host's loopback. Made by a short-lived helper process: as root (or with
// CAP_SYS_ADMIN) a plain network namespace; otherwise, where the kernel allows unprivileged
// user namespaces, a user namespace that maps this user and group to themselves, owning the
// network namespace. The namespaces live while this object (its descriptors) does.
class NetworkSandbox {
 public:
  static absl::StatusOr<std::shared_ptr<const NetworkSandbox>> Create();
  ~NetworkSandbox();
  NetworkSandbox(const NetworkSandbox&) = delete;
  NetworkSandbox& operator=(const NetworkSandbox&) = delete;

  // For a child between fork and exec: joins the namespaces (the user namespace first).
  // Async-signal-safe. 0, or the errno of the setns that failed.
  int Enter() const;

  // Paths another process of this user can open and setns() into, in order (the warm server's
  // test processes join this way): /proc/PID/fd/N of this process.
  std::vector<std::string> Paths() const;

  bool user_namespace() const { return user_fd_ >= 0; }

 private:
  NetworkSandbox(int user_fd, int net_fd) : user_fd_(user_fd), net_fd_(net_fd) {}
  int user_fd_ = -1;  // -1 when the network namespace was made without one
  int net_fd_ = -1;
};

// `wanted`, or, when it asks for an offline run and no sandbox can be made here, the same with
// every run online and a note that says so (and why) added to `notes`.
NetworkPolicy ResolveNetworkPolicy(NetworkPolicy wanted, std::vector<std::string>& notes);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_PROCESS_NETWORK_SANDBOX_H_
