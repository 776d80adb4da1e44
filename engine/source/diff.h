#ifndef SMALLFIX_ENGINE_SOURCE_DIFF_H_
#define SMALLFIX_ENGINE_SOURCE_DIFF_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace smallfix {

// A unified diff (`diff --git a/PATH b/PATH` form, as libgit2 writes it) turning `before`
// into `after` for the repo-relative `path`; `git apply` at the repo root accepts it.
// Empty when the texts are equal.
absl::StatusOr<std::string> UnifiedDiff(std::string_view path, std::string_view before,
                                        std::string_view after, int context_lines = 3);

// One hunk of a line diff without context lines, as `git diff -U0` gives it: `old_lines`
// lines of `before` from 1-based `old_start` become `new_lines` lines of `after` from
// `new_start`. A count of 0 is a pure insertion (or deletion), whose start is then the line
// after which it happens (0: before the first line).
struct LineHunk {
  int old_start = 0;
  int old_lines = 0;
  int new_start = 0;
  int new_lines = 0;
};

// The hunks that turn `before` into `after`, first to last; empty when the texts are equal.
absl::StatusOr<std::vector<LineHunk>> LineHunks(std::string_view before, std::string_view after);

// The added and the removed lines of a unified diff (its `+`/`-` lines, not the file headers).
std::pair<int, int> AddedRemovedLines(std::string_view diff);
// Their sum.
int CountChangedLines(std::string_view diff);

// The added plus removed lines a diff of `before` and `after` has, without writing it: the
// whole lines both texts start and end with are left out first, so a small edit of a long
// file costs what the edit costs. The count can differ from CountChangedLines(UnifiedDiff)
// only where the diff's own heuristics for long files would pick another alignment.
absl::StatusOr<int> ChangedLineCount(std::string_view before, std::string_view after);

// How many leading and, of the rest, trailing items two sequences of lengths `n` and `m` share;
// `same(i, j)` compares item i of the first with item j of the second. What lies between is
// the one region where they differ.
template <typename Same>
std::pair<size_t, size_t> CommonEnds(size_t n, size_t m, const Same& same) {
  size_t prefix = 0;
  while (prefix < n && prefix < m && same(prefix, prefix)) ++prefix;
  size_t suffix = 0;
  while (suffix < n - prefix && suffix < m - prefix && same(n - 1 - suffix, m - 1 - suffix))
    ++suffix;
  return {prefix, suffix};
}

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SOURCE_DIFF_H_
