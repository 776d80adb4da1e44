#ifndef SMALLFIX_ENGINE_VCS_DIRTY_CHECK_H_
#define SMALLFIX_ENGINE_VCS_DIRTY_CHECK_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace smallfix {

// Tracked files of the git repo at `repo` that differ from HEAD (staged or not); empty for
// a clean tree and for a directory that is not a git repo.
absl::StatusOr<std::vector<std::string>> ModifiedTrackedFiles(const std::string& repo);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_VCS_DIRTY_CHECK_H_
