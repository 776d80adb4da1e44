#ifndef SMALLFIX_ENGINE_SOURCE_DIFF_H_
#define SMALLFIX_ENGINE_SOURCE_DIFF_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace smallfix {

// A unified diff (`diff --git a/PATH b/PATH` form, as libgit2 writes it) turning `before`
// into `after` for the repo-relative `path`; `git apply` at the repo root accepts it.
// Empty when the texts are equal.
absl::StatusOr<std::string> UnifiedDiff(std::string_view path, std::string_view before,
                                        std::string_view after, int context_lines = 3);

// The added plus removed lines of a unified diff (its `+`/`-` lines, not the file headers).
int CountChangedLines(std::string_view diff);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SOURCE_DIFF_H_
