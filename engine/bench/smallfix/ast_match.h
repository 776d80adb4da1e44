#ifndef SMALLFIX_ENGINE_BENCH_SMALLFIX_AST_MATCH_H_
#define SMALLFIX_ENGINE_BENCH_SMALLFIX_AST_MATCH_H_

#include <vector>

#include "engine/bench/smallfix/unified_diff.h"

namespace smallfix::bench {

// Whether a candidate patch is the reference fix up to layout (TreeKey): every file that
// either one changes has the same syntax tree (TreeKey) after both. A file only one side
// changes is compared with its text before (the side that left it alone).
bool SameAstAsReference(const std::vector<FileChange>& reference,
                        const std::vector<FileChange>& candidate);

}  // namespace smallfix::bench

#endif  // SMALLFIX_ENGINE_BENCH_SMALLFIX_AST_MATCH_H_
