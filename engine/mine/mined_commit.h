#ifndef SMALLFIX_ENGINE_MINE_MINED_COMMIT_H_
#define SMALLFIX_ENGINE_MINE_MINED_COMMIT_H_

#include <string>
#include <vector>

#include "engine/source/diff.h"

namespace smallfix::mine {

// One hunk of a file's diff (engine/source/diff.h).
using ::smallfix::LineHunk;

// A Python file changed by a kept commit: both versions' text and the diff's hunks.
struct ChangedFile {
  std::string path;
  std::string before;
  std::string after;
  std::vector<LineHunk> hunks;
};

// A small non-merge commit that the history walk kept.
struct MinedCommit {
  std::string sha;
  std::string summary;
  std::vector<ChangedFile> files;
};

}  // namespace smallfix::mine

#endif  // SMALLFIX_ENGINE_MINE_MINED_COMMIT_H_
