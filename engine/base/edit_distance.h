#ifndef SMALLFIX_ENGINE_BASE_EDIT_DISTANCE_H_
#define SMALLFIX_ENGINE_BASE_EDIT_DISTANCE_H_

#include <algorithm>
#include <string_view>
#include <vector>

namespace smallfix {

// Levenshtein distance: the fewest one-character insertions, deletions and substitutions
// that turn `a` into `b`. For names (typos, renames), so short strings.
inline size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_BASE_EDIT_DISTANCE_H_
