#ifndef SMALLFIX_ENGINE_LOCALIZE_HOST_PREFIX_H_
#define SMALLFIX_ENGINE_LOCALIZE_HOST_PREFIX_H_

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/localize/rank_prefix.h"

namespace smallfix {

// Multi-node launchers (pdsh, clush, the launchers built on them) put the node's host name
// and a colon before every line a node prints: "node7: Traceback (most recent call last):",
// "10.0.0.3:   File \"...\"", "gpu-a12: [rank3]: RuntimeError: ...". A word before ": " is
// taken as a host once a traceback or stack dump starts after it (a line never starts a
// traceback with a word of its own), and from then on it is stripped from every line. Each
// host is its own group of streams, so two nodes' interleaved tracebacks stay apart.
//
// torchrun's per-line prefix is "[ROLE<local rank>]:" ("[default0]:"); multi-node scripts
// pass the node's name as the role ("--role $SLURMD_NODENAME:" prints "[node07:0]:"), so a
// role other than "default" or "rank" is a host too, with the local rank.
//
// Stateful: hosts are learnt while the lines are read, in order.
class HostPrefixes {
 public:
  // At most this many hosts are learnt; lines of later ones are read as they are.
  static constexpr size_t kMaxHosts = 1024;

  // Strips a host prefix and then the rank and logger prefixes (rank_prefix.h). A host's
  // lines get a stream of their own per (host, inner stream); `rank` is the rank prefix's,
  // -1 when the line names none.
  PrefixedLine Split(std::string_view line);

  const std::vector<std::string>& hosts() const { return hosts_; }

 private:
  // The index of the host `line` starts with (learning it when a traceback follows), or -1;
  // `*rest` is the line after "host: ".
  int Host(std::string_view line, std::string_view* rest);
  // The same for a torchrun role prefix; `*local_rank` is its number.
  int Role(std::string_view line, std::string_view* rest, int* local_rank);
  int Learn(std::string_view word);

  std::vector<std::string> hosts_;
  std::map<std::string, int, std::less<>> index_;
  std::map<std::pair<int, int>, int> streams_;  // (host, inner stream) -> stream key
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_HOST_PREFIX_H_
