#ifndef SMALLFIX_ENGINE_VCS_BRANCH_COMMIT_H_
#define SMALLFIX_ENGINE_VCS_BRANCH_COMMIT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/source/file_change.h"

namespace smallfix {

struct GitIdentity {
  std::string name;
  std::string email;
};

// Detaches HEAD of the repo at `dir` at `ref` (refs/remotes/origin/main) and makes the
// working tree match it, dropping local edits: for a clone the bot owns, never a user's tree.
absl::Status CheckoutDetached(const std::string& dir, const std::string& ref);

// Whether `ref` names a commit in the repo at `dir`.
bool RefExists(const std::string& dir, const std::string& ref);

// A commit with `parent_ref`'s commit as its one parent and its tree with `changes` applied
// (files keep their mode; new files are regular), by `identity` now, stored as
// refs/heads/`branch` (replacing what was there). Nothing in the working tree changes.
// Returns the commit id (hex).
absl::StatusOr<std::string> CommitChanges(const std::string& dir, const std::string& parent_ref,
                                          const std::string& branch,
                                          const std::vector<FileChange>& changes,
                                          const GitIdentity& identity, const std::string& message);

// Whether the commits `ref_a` and `ref_b` hold the same tree on the same parents (a
// recommitted patch on an unchanged base).
absl::StatusOr<bool> SameChange(const std::string& dir, const std::string& ref_a,
                                const std::string& ref_b);

// "Name <email>" of every author or committer other than `email` of the commits on `ref`
// that are not on `base_ref`, each once: someone else's work that a force-push would drop.
absl::StatusOr<std::vector<std::string>> OtherPeoplesCommits(const std::string& dir,
                                                             const std::string& ref,
                                                             const std::string& base_ref,
                                                             const std::string& email);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_VCS_BRANCH_COMMIT_H_
