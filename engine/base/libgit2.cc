#include "engine/base/libgit2.h"

#include <git2.h>

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

}  // namespace smallfix
