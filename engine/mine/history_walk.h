#ifndef SMALLFIX_ENGINE_MINE_HISTORY_WALK_H_
#define SMALLFIX_ENGINE_MINE_HISTORY_WALK_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "engine/mine/mined_commit.h"

namespace smallfix::mine {

struct WalkOptions {
  std::optional<int64_t> since;  // seconds since the epoch; older commits are not walked
  int max_lines = 10;            // the most changed non-test Python lines a kept commit may have
};

struct WalkStats {
  int walked = 0;  // commits looked at
  int kept = 0;    // commits handed to `keep`
};

// True for a path whose Python code is tests (tests/ folders, test_*.py, *_test.py, conftest.py).
bool IsTestPath(const std::string& path);

// Walks the history reachable from HEAD of the git repo at `repo` (bare or not), newest first,
// and calls `keep` for each non-merge, non-revert commit whose non-test Python change is
// 1..max_lines lines, where a file's changed lines are max(added, deleted): a line replaced
// counts once. Large commits are dropped by their line counts before any blob is read.
absl::Status WalkHistory(const std::string& repo, const WalkOptions& options,
                         const std::function<void(MinedCommit)>& keep, WalkStats* stats);

}  // namespace smallfix::mine

#endif  // SMALLFIX_ENGINE_MINE_HISTORY_WALK_H_
