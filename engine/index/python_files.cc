#include "engine/index/python_files.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "engine/base/concat.h"

namespace smallfix {

bool IsSkippedDirectory(std::string_view name) {
  static constexpr std::string_view kNames[] = {"__pycache__",   "node_modules", "venv",
                                                "site-packages", "dist",         "dist-packages"};
  if (name.starts_with('.')) return true;
  // build, build-asan, build.release: outputs. Not "builder" or "build_utils", which are
  // package names real projects use.
  if (name == "build" || name.starts_with("build-") || name.starts_with("build.")) return true;
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

absl::StatusOr<std::vector<std::string>> ListPythonFiles(const std::string& root) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(root, error);
  if (error || !fs::exists(status)) {
    return absl::NotFoundError(Concat("cannot index ", root, ": no such directory"));
  }
  if (!fs::is_directory(status)) {
    return absl::InvalidArgumentError(Concat("cannot index ", root, ": not a directory"));
  }
  std::vector<std::string> files;
  const fs::path base(root);
  fs::recursive_directory_iterator it(base, fs::directory_options::skip_permission_denied, error);
  if (error)
    return absl::PermissionDeniedError(Concat("cannot read ", root, ": ", error.message()));
  for (; it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (error) break;
    const fs::directory_entry& entry = *it;
    const std::string name = entry.path().filename().string();
    std::error_code type_error;
    if (entry.is_directory(type_error)) {
      if (entry.is_symlink(type_error) || IsSkippedDirectory(name)) it.disable_recursion_pending();
      continue;
    }
    if (!name.ends_with(".py") || !entry.is_regular_file(type_error)) continue;
    files.push_back(entry.path().lexically_relative(base).generic_string());
  }
  if (error) {
    return absl::UnavailableError(Concat("listing ", root, " failed: ", error.message()));
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace smallfix
