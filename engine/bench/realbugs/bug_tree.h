#ifndef SMALLFIX_ENGINE_BENCH_REALBUGS_BUG_TREE_H_
#define SMALLFIX_ENGINE_BENCH_REALBUGS_BUG_TREE_H_

#include <atomic>
#include <string>

#include "absl/status/statusor.h"
#include "engine/bench/realbugs/real_bug.h"

namespace smallfix::realbugs {

// Where trees come from: a fetched history if there is one under the mirror root, else PyPI
// (auto); or only one of them.
struct TreeSource {
  std::string mirror_root = "/work/.mirror";
  std::string from = "auto";  // auto | git | pypi
};

enum class Side { kBuggy, kFixed };

// Makes `dest` (absent or empty) the bug's buggy or fixed tree, a one-commit git repository,
// through scripts/realbugs.py; returns where it came from ("git" or "pypi"). The script
// checks every file the fix touches against the text sums in bugs.jsonl.
absl::StatusOr<std::string> MakeTree(const RealBug& bug, Side side, const std::string& dest,
                                     const TreeSource& source, const std::atomic<bool>* cancel);

// The interpreter of the bug's pinned venv (scripts/realbugs.sh setup makes it); an error
// that says how to make it when it is missing.
absl::StatusOr<std::string> BugInterpreter(const RealBug& bug);

// benchmarks/realbugs of the source tree (SMALLFIX_REALBUGS_DIR overrides).
std::string RealbugsDir();

}  // namespace smallfix::realbugs

#endif  // SMALLFIX_ENGINE_BENCH_REALBUGS_BUG_TREE_H_
