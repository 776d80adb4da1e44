#ifndef SMALLFIX_ENGINE_REPAIR_SITE_CHECK_H_
#define SMALLFIX_ENGINE_REPAIR_SITE_CHECK_H_

#include <string>

#include "absl/status/status.h"

namespace smallfix {

// Why the repo-relative `file` of a site cannot be edited in `repo`, as InvalidArgument naming
// it: a path that leaves the repository (an absolute path elsewhere, `..`, or a symlink whose
// target lies outside it: a candidate written there would change a file outside the
// worktree), a directory or other non-file, or a file inside a submodule or nested repository
// (its files are not in the repository's worktrees). OK for a regular file of the repository;
// a missing file is left to the loader, whose error names it.
absl::Status CheckSiteFile(const std::string& repo, const std::string& file);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_SITE_CHECK_H_
