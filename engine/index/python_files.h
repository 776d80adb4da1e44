#ifndef SMALLFIX_ENGINE_INDEX_PYTHON_FILES_H_
#define SMALLFIX_ENGINE_INDEX_PYTHON_FILES_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace smallfix {

// True for directories an index never enters: VCS data, caches, virtual environments,
// installed packages and build outputs (.git, __pycache__, node_modules, build, build-*,
// .venv, venv, site-packages, dist-packages, dist, .tox, and other hidden directories).
bool IsSkippedDirectory(std::string_view name);

// The repo-relative paths ("pkg/mod.py", '/'-separated) of every .py file under `root`,
// sorted. Symbolic links to directories are not followed. NotFound when `root` is missing,
// InvalidArgument when it is not a directory.
absl::StatusOr<std::vector<std::string>> ListPythonFiles(const std::string& root);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_INDEX_PYTHON_FILES_H_
