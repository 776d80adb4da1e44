#ifndef SMALLFIX_ENGINE_MINE_TREE_DIFF_H_
#define SMALLFIX_ENGINE_MINE_TREE_DIFF_H_

#include <tree_sitter/api.h>

#include <vector>

#include "engine/source/document.h"

namespace smallfix::mine {

// One smallest changed place between two syntax trees: under `before_parent` the children
// `removed` became, under the matching `after_parent`, the children `inserted`. Either list may
// be empty (a pure insertion or deletion), not both.
struct TreeEdit {
  TSNode before_parent;
  TSNode after_parent;
  std::vector<TSNode> removed;
  std::vector<TSNode> inserted;
  TSNode after_next;   // the after-side sibling right after `inserted`, or a null node
  int before_row = 0;  // 0-based line of the edit in before (of its anchor for an insertion)
  int after_row = 0;   // likewise in after
  int before_end_row = 0;
  int after_end_row = 0;
};

// Diffs two parsed versions of a file top-down: children equal in type and text are matched
// (common prefix, suffix, then a longest common subsequence), an unmatched pair of the same
// type is diffed further, and what is left is reported. Comments are ignored.
std::vector<TreeEdit> DiffTrees(const Document& before, const Document& after);

}  // namespace smallfix::mine

#endif  // SMALLFIX_ENGINE_MINE_TREE_DIFF_H_
