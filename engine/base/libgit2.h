#ifndef SMALLFIX_ENGINE_BASE_LIBGIT2_H_
#define SMALLFIX_ENGINE_BASE_LIBGIT2_H_

#include <string_view>

#include "absl/status/status.h"

namespace smallfix {

// Initialises libgit2 once per process (thread-safe); every user of libgit2 calls it first.
// libgit2 keeps process-wide state of its own; this is the one place that starts it.
void EnsureLibgit2();

// An error carrying libgit2's last message for this thread, prefixed with `what`.
absl::Status Libgit2Error(std::string_view what);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_BASE_LIBGIT2_H_
