#ifndef SMALLFIX_ENGINE_VCS_RUN_SWEEP_H_
#define SMALLFIX_ENGINE_VCS_RUN_SWEEP_H_

#include <string>

namespace smallfix {

// What a sweep removed.
struct SweepCounts {
  int worktrees = 0;
  int branches = 0;
  int directories = 0;
};

// Removes from the git repository at `repo_root` what runs of smallfix that have ended left in
// it: a run killed outright (SIGKILL, the OOM killer) cannot remove its worktrees itself. A
// worktree or branch is swept when its name records an owner (engine/base/run_owner.h) that no
// longer runs on this machine: the worktree's directory and its record in .git/worktrees, and
// the branch. A live run's, another machine's and any name smallfix did not make are never
// touched. Also swept: the worktrees of smallfix versions before owner tags (smallfix-reproduce,
// smallfix-c<N> under a smallfix-XXXXXX scratch directory) with their branch. Quiet about
// everything: a repository it cannot open has nothing to sweep.
SweepCounts SweepDeadRuns(const std::string& repo_root);

// What a run does first: SweepDeadRuns on `repo_root`, then SweepDeadRunDirs.
SweepCounts SweepBeforeRun(const std::string& repo_root);

// A line for the report when a sweep removed anything ("removed what smallfix runs that were
// killed left behind: 2 worktree(s), 1 branch(es), 1 scratch director(ies)"), else "".
std::string SweepNote(const SweepCounts& counts);

// Removes the scratch directories in $TMPDIR whose names record an owner that no longer runs on
// this machine (TempDir names them so: engine/base/temp_dir.h).
SweepCounts SweepDeadRunDirs();

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_VCS_RUN_SWEEP_H_
