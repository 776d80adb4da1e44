#ifndef SMALLFIX_ENGINE_VCS_REPO_STATE_H_
#define SMALLFIX_ENGINE_VCS_REPO_STATE_H_

#include <string>

#include "absl/status/status.h"

namespace smallfix {

// Why a repair cannot start in `repo`, as FailedPrecondition naming it: a bare repository
// (no files to repair), or a merge, rebase, cherry-pick, revert or `git am` in progress (the
// tree holds conflict markers or half of an operation). OK for any other git work tree, dirty
// or detached, and for a directory that is not a git repository.
absl::Status CheckRepoState(const std::string& repo);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_VCS_REPO_STATE_H_
