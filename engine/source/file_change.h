#ifndef SMALLFIX_ENGINE_SOURCE_FILE_CHANGE_H_
#define SMALLFIX_ENGINE_SOURCE_FILE_CHANGE_H_

#include <string>

namespace smallfix {

// One file's text before and after a change: a candidate's edits, a reference fix, what a
// validation writes into its workspace.
struct FileChange {
  std::string file;  // relative to the repo root ("pkg/mod.py")
  std::string before;
  std::string after;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SOURCE_FILE_CHANGE_H_
