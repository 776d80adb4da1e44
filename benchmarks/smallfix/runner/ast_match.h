#ifndef SMALLFIX_BENCHMARKS_SMALLFIX_RUNNER_AST_MATCH_H_
#define SMALLFIX_BENCHMARKS_SMALLFIX_RUNNER_AST_MATCH_H_

#include <vector>

#include "benchmarks/smallfix/runner/unified_diff.h"

namespace smallfix::bench {

// Whether a candidate patch is the reference fix up to layout (TreeKey): every file that
// either one changes has the same syntax tree (TreeKey) after both. A file only one side
// changes is compared with its text before (the side that left it alone).
bool SameAstAsReference(const std::vector<FileChange>& reference,
                        const std::vector<FileChange>& candidate);

}  // namespace smallfix::bench

#endif  // SMALLFIX_BENCHMARKS_SMALLFIX_RUNNER_AST_MATCH_H_
