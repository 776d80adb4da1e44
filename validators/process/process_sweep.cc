#include "validators/process/process_sweep.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace smallfix {

int KillProcessesIn(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code error;
  const std::string root = fs::weakly_canonical(dir, error).string();
  if (root.empty() || root == "/") return 0;
  int killed = 0;
  for (fs::directory_iterator it("/proc", error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = static_cast<pid_t>(std::atol(name.c_str()));
    if (pid == getpid()) continue;
    std::error_code unreadable;
    // A removed directory reads as "PATH (deleted)": the prefix still names it.
    const std::string cwd = fs::read_symlink(it->path() / "cwd", unreadable).string();
    if (unreadable) continue;  // gone, or another user's
    if (cwd == root || cwd.starts_with(root + "/") || cwd.starts_with(root + " ")) {
      if (kill(pid, SIGKILL) == 0) ++killed;
    }
  }
  return killed;
}

}  // namespace smallfix
