#ifndef SMALLFIX_VALIDATORS_PROCESS_PROCESS_SWEEP_H_
#define SMALLFIX_VALIDATORS_PROCESS_PROCESS_SWEEP_H_

#include <string>

namespace smallfix {

// Kills (SIGKILL) every process of this user whose working directory is `dir` or lies under
// it, other than this one, and returns how many. A test that starts a daemon (setsid, a double
// fork) leaves it outside the process group that the time limit kills; its working directory
// still says which run's worktree it came from. Only for directories smallfix made (its
// scratch directory), never the user's repository. Linux (/proc); elsewhere it kills nothing.
int KillProcessesIn(const std::string& dir);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_PROCESS_PROCESS_SWEEP_H_
