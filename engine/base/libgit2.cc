#include "engine/base/libgit2.h"

#include "absl/strings/str_format.h"

namespace smallfix {

void EnsureLibgit2() {
  static const int initialised = git_libgit2_init();
  (void)initialised;
}

absl::Status Libgit2Error(std::string_view what) {
  const git_error* error = git_error_last();
  const std::string_view message =
      error != nullptr && error->message != nullptr ? error->message : "libgit2 error";
  return absl::InternalError(absl::StrFormat("%s: %s", what, message));
}

absl::StatusOr<GitRepository> OpenGitRepository(const std::string& dir) {
  EnsureLibgit2();
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, dir.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    return Libgit2Error(absl::StrFormat("opening the git repository %s", dir));
  }
  return GitRepository(raw);
}

}  // namespace smallfix
