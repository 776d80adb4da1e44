#ifndef SMALLFIX_ENGINE_BENCH_REALFIX_GIT_TREE_H_
#define SMALLFIX_ENGINE_BENCH_REALFIX_GIT_TREE_H_

#include <string>

#include "absl/status/statusor.h"

namespace smallfix::realfix {

// The git directory of project "OWNER/NAME" under `mirror_root`: a bare mirror at
// OWNER+NAME/repo, else a plain clone at OWNER/NAME. NotFound naming both places otherwise.
absl::StatusOr<std::string> FindProjectGit(const std::string& mirror_root, const std::string& repo);

// Which files of a commit's tree are written out: every Python file, or only those under the
// first directory of the fault file's path (the package; the repo index sees less of the
// project, but trees like NeMo's are written in a fraction of the time).
enum class TreeScope { kAll, kPackage };

// Writes the Python files of `commit`'s tree (per `scope`, always including `file`) under
// `dest`, with libgit2; returns how many were written. Skips directories an index never enters.
absl::StatusOr<int> MaterialiseTree(const std::string& git_dir, const std::string& commit,
                                    const std::string& file, TreeScope scope,
                                    const std::string& dest);

// One file's text at `commit`; NotFound naming the commit and path when absent.
absl::StatusOr<std::string> ReadAtCommit(const std::string& git_dir, const std::string& commit,
                                         const std::string& file);

}  // namespace smallfix::realfix

#endif  // SMALLFIX_ENGINE_BENCH_REALFIX_GIT_TREE_H_
