#include "engine/vcs/repo_state.h"

#include <git2.h>

#include "engine/base/concat.h"
#include "engine/base/libgit2.h"

namespace smallfix {
namespace {

// What `git status` calls the operation in progress, or nullptr for none that matters.
const char* OperationInProgress(int state) {
  switch (state) {
    case GIT_REPOSITORY_STATE_MERGE:
      return "a merge (MERGE_HEAD)";
    case GIT_REPOSITORY_STATE_REVERT:
    case GIT_REPOSITORY_STATE_REVERT_SEQUENCE:
      return "a revert";
    case GIT_REPOSITORY_STATE_CHERRYPICK:
    case GIT_REPOSITORY_STATE_CHERRYPICK_SEQUENCE:
      return "a cherry-pick";
    case GIT_REPOSITORY_STATE_REBASE:
    case GIT_REPOSITORY_STATE_REBASE_INTERACTIVE:
    case GIT_REPOSITORY_STATE_REBASE_MERGE:
      return "a rebase";
    case GIT_REPOSITORY_STATE_APPLY_MAILBOX:
    case GIT_REPOSITORY_STATE_APPLY_MAILBOX_OR_REBASE:
      return "a `git am`";
    default:
      return nullptr;  // none, or a bisect: a checkout like any other
  }
}

}  // namespace

absl::Status CheckRepoState(const std::string& repo) {
  EnsureLibgit2();
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, repo.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    git_error_clear();
    return absl::OkStatus();  // not a git repository: repaired in a temporary copy
  }
  const bool bare = git_repository_is_bare(raw);
  const int state = git_repository_state(raw);
  git_repository_free(raw);
  if (bare) {
    return absl::FailedPreconditionError(
        Concat("--repo ", repo, " is a bare repository: repair needs a checkout with its files"));
  }
  if (const char* operation = OperationInProgress(state)) {
    return absl::FailedPreconditionError(Concat("--repo ", repo, " is in the middle of ", operation,
                                                ": finish or abort it before repairing"));
  }
  return absl::OkStatus();
}

}  // namespace smallfix
