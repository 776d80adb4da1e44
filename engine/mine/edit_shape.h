#ifndef SMALLFIX_ENGINE_MINE_EDIT_SHAPE_H_
#define SMALLFIX_ENGINE_MINE_EDIT_SHAPE_H_

#include <string>
#include <vector>

#include "engine/mine/abstraction.h"
#include "engine/mine/mined_commit.h"
#include "engine/mine/tree_diff.h"

namespace smallfix::mine {

// One tree edit in abstract form.
struct AbstractEdit {
  std::string kind;    // insert | delete | change
  std::string where;   // "before a statement using $A", "in the arguments of a call of $B", ...
  std::string before;  // abstract removed code ("" for an insertion)
  std::string after;   // abstract inserted code ("" for a deletion)
  std::string Describe() const;
};

// The abstract shape of one diff hunk: its edits, in order, with placeholders shared.
struct HunkShape {
  std::string sha;
  std::string summary;
  std::string file;
  int line = 0;  // 1-based line of the hunk in the fixed file
  std::vector<AbstractEdit> edits;
  std::string shape;  // the edits described and joined: the clustering key
};

// Abstracts one edit (placeholders named through `names`, shared within a hunk).
AbstractEdit AbstractTreeEdit(const Document& before, const Document& after, const TreeEdit& edit,
                              Abstracter& names);

// Parses both versions of each changed file, diffs their trees and groups the edits by the
// diff hunk they fall in. Hunks that change only comments or layout have no shape; files that
// do not parse cleanly are skipped.
std::vector<HunkShape> ShapeCommit(const MinedCommit& commit);

}  // namespace smallfix::mine

#endif  // SMALLFIX_ENGINE_MINE_EDIT_SHAPE_H_
