#include "engine/repair/site_check.h"

#include <filesystem>

#include "engine/base/concat.h"

namespace smallfix {

namespace fs = std::filesystem;

absl::Status CheckSiteFile(const std::string& repo, const std::string& file) {
  std::error_code error;
  const fs::path root = fs::weakly_canonical(fs::absolute(repo, error), error);
  const fs::path given(file);
  if (given.is_absolute()) {
    const fs::path relative = fs::weakly_canonical(given, error).lexically_relative(root);
    if (!relative.empty() && !relative.string().starts_with("..")) {
      return absl::InvalidArgumentError(
          Concat(file, ": give the path relative to the repository (", relative.string(), ")"));
    }
  }
  if (given.is_absolute() || given.lexically_normal().string().starts_with("..")) {
    return absl::InvalidArgumentError(Concat(file, ": outside the repository ", repo));
  }
  const fs::path path = root / given;
  if (!fs::exists(fs::symlink_status(path, error))) return absl::OkStatus();
  const fs::path real = fs::weakly_canonical(path, error);
  const fs::path inside = real.lexically_relative(root);
  if (error || inside.empty() || inside.string().starts_with("..")) {
    return absl::InvalidArgumentError(
        Concat(file, ": a symlink to ", real.string(), ", outside the repository"));
  }
  if (fs::is_directory(real, error)) {
    return absl::InvalidArgumentError(Concat(file, ": is a directory, not a file"));
  }
  if (!fs::is_regular_file(real, error)) {
    return absl::InvalidArgumentError(Concat(file, ": not a regular file"));
  }
  // A .git (file or directory) between the root and the file marks a submodule or a nested
  // repository.
  fs::path dir = root;
  for (auto part = inside.begin(); part != inside.end() && std::next(part) != inside.end();
       ++part) {
    dir /= *part;
    if (fs::exists(dir / ".git", error)) {
      return absl::InvalidArgumentError(
          Concat(file, ": inside ", dir.lexically_relative(root).string(),
                 ", a submodule or nested repository: repair it in its own checkout"));
    }
  }
  return absl::OkStatus();
}

}  // namespace smallfix
