#ifndef SMALLFIX_BENCHMARKS_REALFIX_RUNNER_FIX_PARTS_H_
#define SMALLFIX_BENCHMARKS_REALFIX_RUNNER_FIX_PARTS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/source/diff.h"

namespace smallfix::realfix {

// One part of a fix: one of its hunks (as `git diff -U0` cuts them) applied alone.
struct FixPart {
  LineHunk hunk;
  std::string target;  // the parent file with only this hunk of the fix applied
};

// The parts of the fix from `before` to `fixed`, first to last. A fix of one hunk has one part,
// the fixed file itself.
absl::StatusOr<std::vector<FixPart>> FixParts(const std::string& before, const std::string& fixed);

}  // namespace smallfix::realfix

#endif  // SMALLFIX_BENCHMARKS_REALFIX_RUNNER_FIX_PARTS_H_
