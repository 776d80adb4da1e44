#ifndef SMALLFIX_ENGINE_BASE_LIBGIT2_H_
#define SMALLFIX_ENGINE_BASE_LIBGIT2_H_

#include <git2.h>

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace smallfix {

// Initialises libgit2 once per process (thread-safe); every user of libgit2 calls it first.
// libgit2 keeps process-wide state of its own; this is the one place that starts it.
void EnsureLibgit2();

// An error carrying libgit2's last message for this thread, prefixed with `what`.
absl::Status Libgit2Error(std::string_view what);

// Owners of libgit2 objects, so that every return path frees them.
template <typename T, void (*Free)(T*)>
struct Libgit2Free {
  void operator()(T* object) const { Free(object); }
};
using GitRepository =
    std::unique_ptr<git_repository, Libgit2Free<git_repository, git_repository_free>>;
using GitCommit = std::unique_ptr<git_commit, Libgit2Free<git_commit, git_commit_free>>;
using GitTree = std::unique_ptr<git_tree, Libgit2Free<git_tree, git_tree_free>>;
using GitTreeEntry =
    std::unique_ptr<git_tree_entry, Libgit2Free<git_tree_entry, git_tree_entry_free>>;
using GitBlob = std::unique_ptr<git_blob, Libgit2Free<git_blob, git_blob_free>>;
using GitIndex = std::unique_ptr<git_index, Libgit2Free<git_index, git_index_free>>;
using GitSignature = std::unique_ptr<git_signature, Libgit2Free<git_signature, git_signature_free>>;
using GitRevwalk = std::unique_ptr<git_revwalk, Libgit2Free<git_revwalk, git_revwalk_free>>;
using GitDiff = std::unique_ptr<git_diff, Libgit2Free<git_diff, git_diff_free>>;
using GitPatch = std::unique_ptr<git_patch, Libgit2Free<git_patch, git_patch_free>>;

// Opens the repository whose work tree top or git directory (a bare mirror) is `dir`, without
// searching the directories above it: a path inside some other checkout must not open that one.
absl::StatusOr<GitRepository> OpenGitRepository(const std::string& dir);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_BASE_LIBGIT2_H_
