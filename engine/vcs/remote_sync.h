#ifndef SMALLFIX_ENGINE_VCS_REMOTE_SYNC_H_
#define SMALLFIX_ENGINE_VCS_REMOTE_SYNC_H_

#include <atomic>
#include <string>

#include "absl/status/status.h"

namespace smallfix {

// How to reach a remote. The token goes to http(s) servers that ask for credentials, as the
// password of user "x-access-token" (what GitHub expects of app and Actions tokens), and
// nowhere else; errors never hold it.
struct GitAuth {
  std::string token;
  const std::atomic<bool>* cancel = nullptr;  // Ctrl-C: aborts the transfer
};

// Makes `dir` a clone of `url` (any URL libgit2 supports: https://, http://, file://, a path)
// with every branch of the remote under refs/remotes/origin/: clones when `dir` is absent or
// empty, fetches (pruning branches the remote deleted) when it is a clone of the same URL, and
// refuses anything else.
absl::Status CloneOrFetch(const std::string& url, const std::string& dir, const GitAuth& auth);

// Pushes refs/heads/`branch` of the repo at `dir` to the same name at `url`, forced (the
// caller has checked that nobody else's commits are on it). Refuses to push `protected_branch`
// (the default branch), and says which ref the remote rejected and why.
absl::Status PushBranch(const std::string& dir, const std::string& url, const std::string& branch,
                        const std::string& protected_branch, const GitAuth& auth);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_VCS_REMOTE_SYNC_H_
