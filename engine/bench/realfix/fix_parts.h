#ifndef SMALLFIX_ENGINE_BENCH_REALFIX_FIX_PARTS_H_
#define SMALLFIX_ENGINE_BENCH_REALFIX_FIX_PARTS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/source/diff.h"

namespace smallfix::realfix {

// One part of a fix: one of its hunks (as `git diff -U0` cuts them) applied alone, or, in a
// hunk that rewrites lines one for one, one place where a line's tokens change (two edits
// in one line are two parts).
struct FixPart {
  LineHunk hunk;       // the hunk, or the one line of it that holds the part
  std::string target;  // the parent file with only this part of the fix applied
};

// The parts of the fix from `before` to `fixed`, first to last. A fix of one hunk with one
// place changed has one part, the fixed file itself. Places of a line are split only when
// each alone parses as well as the parent (`f(x)` -> `g(f(x))` is one part).
absl::StatusOr<std::vector<FixPart>> FixParts(const std::string& before, const std::string& fixed);

}  // namespace smallfix::realfix

#endif  // SMALLFIX_ENGINE_BENCH_REALFIX_FIX_PARTS_H_
