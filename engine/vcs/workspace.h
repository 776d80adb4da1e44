#ifndef SMALLFIX_ENGINE_VCS_WORKSPACE_H_
#define SMALLFIX_ENGINE_VCS_WORKSPACE_H_

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace smallfix {

// A scratch copy of the user's repo where one candidate is applied and tested, so the
// user's tree is never touched.
//
// For a git repo it is a linked worktree at HEAD (libgit2) with a detached HEAD, plus the
// user's uncommitted changes and untracked files copied over, so tests see exactly what the
// user sees. Its name in the repo's .git/worktrees records the run that made it,
// smallfix-<owner tag>-<n>-<name> (engine/base/run_owner.h), so runs on one repository at once
// never collide. For anything else it is a plain recursive copy. The destructor removes the
// directory and the worktree's record (also after an exception or on a cancelled run);
// SweepDeadRuns (run_sweep.h) cleans up after a run that was killed outright.
class Workspace {
 public:
  // Creates `parent_dir`/`name` from `repo_root`; `parent_dir` is the run's own scratch
  // directory, so `name` ("reproduce", "c3") need only be unique within the run.
  static absl::StatusOr<std::unique_ptr<Workspace>> Create(const std::string& repo_root,
                                                           const std::string& parent_dir,
                                                           const std::string& name);
  ~Workspace();
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  const std::string& path() const { return path_; }
  bool is_git_worktree() const { return !worktree_name_.empty(); }

  // Replaces a repo-relative file's contents.
  absl::Status WriteFile(const std::string& relative_path, std::string_view text) const;

 private:
  Workspace(std::string repo_root, std::string path, std::string worktree_name)
      : repo_root_(std::move(repo_root)),
        path_(std::move(path)),
        worktree_name_(std::move(worktree_name)) {}

  std::string repo_root_;
  std::string path_;
  std::string worktree_name_;  // empty for a plain copy
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_VCS_WORKSPACE_H_
