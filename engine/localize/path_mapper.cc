#include "engine/localize/path_mapper.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace smallfix {
namespace {

namespace fs = std::filesystem;

std::vector<std::string_view> Components(std::string_view path) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view part = path.substr(start, end - start);
    if (!part.empty() && part != ".") parts.push_back(part);
    start = end + 1;
  }
  return parts;
}

bool SkippedDirectory(std::string_view name) {
  return name.starts_with(".") || name == "__pycache__" || name == "node_modules" ||
         name == "site-packages" || name == "dist-packages" || name == "venv" ||
         name.starts_with("build-") || name == "build" || name == "dist" ||
         name.ends_with(".egg-info");
}

// The index of the package an interpreter-library path names: the component after
// site-packages / dist-packages / lib/pythonX.Y; nullopt when the path is not in such a library.
std::optional<size_t> InstalledPackageIndex(const std::vector<std::string_view>& parts) {
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    if (parts[i] == "site-packages" || parts[i] == "dist-packages") {
      // An egg install: site-packages/pkg-1.0-py3.10.egg/pkg/...
      if (parts[i + 1].ends_with(".egg") && i + 2 < parts.size()) return i + 2;
      return i + 1;
    }
    if (i > 0 && parts[i - 1] == "lib" && parts[i].starts_with("python")) {
      // lib/python3.11/<module>: the standard library, unless site-packages follows.
      if (i + 2 < parts.size() &&
          (parts[i + 1] == "site-packages" || parts[i + 1] == "dist-packages")) {
        continue;
      }
      return i + 1;
    }
  }
  return std::nullopt;
}

std::string_view InstalledPackage(const std::vector<std::string_view>& parts) {
  const std::optional<size_t> index = InstalledPackageIndex(parts);
  return index ? parts[*index] : std::string_view();
}

}  // namespace

absl::StatusOr<PathMapper> PathMapper::ForRepo(const std::string& repo_root) {
  std::error_code error;
  if (!fs::is_directory(repo_root, error)) {
    return absl::NotFoundError(absl::StrFormat("repo '%s' is not a directory", repo_root));
  }
  std::vector<std::string> files;
  fs::recursive_directory_iterator it(repo_root, fs::directory_options::skip_permission_denied,
                                      error);
  if (error) {
    return absl::PermissionDeniedError(
        absl::StrFormat("cannot list repo '%s': %s", repo_root, error.message()));
  }
  for (; it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (error) break;
    const fs::directory_entry& entry = *it;
    const std::string name = entry.path().filename().string();
    if (entry.is_directory(error)) {
      if (SkippedDirectory(name)) it.disable_recursion_pending();
      continue;
    }
    if (!name.ends_with(".py") || !entry.is_regular_file(error)) continue;
    files.push_back(fs::relative(entry.path(), repo_root, error).generic_string());
    if (files.size() >= kMaxFiles) break;
  }
  return ForFiles(std::move(files), PackageLayout::ForRepo(repo_root));
}

PathMapper PathMapper::ForFiles(std::vector<std::string> files, PackageLayout layout) {
  PathMapper mapper;
  std::sort(files.begin(), files.end());
  mapper.files_ = std::move(files);
  mapper.layout_ = std::move(layout);
  for (size_t i = 0; i < mapper.files_.size(); ++i) {
    const std::string& file = mapper.files_[i];
    const size_t slash = file.rfind('/');
    mapper.by_name_[file.substr(slash == std::string::npos ? 0 : slash + 1)].push_back(i);
  }
  return mapper;
}

std::optional<std::string> PathMapper::Map(std::string_view printed) const {
  std::string normal(printed);
  std::replace(normal.begin(), normal.end(), '\\', '/');
  const std::vector<std::string_view> parts = Components(normal);
  if (parts.empty()) return std::nullopt;
  const auto named = by_name_.find(parts.back());
  if (named == by_name_.end()) return std::nullopt;
  const std::optional<size_t> package_index = InstalledPackageIndex(parts);
  const std::string_view package = package_index ? parts[*package_index] : std::string_view();
  if (package_index && layout_.Installs(package)) {
    if (std::optional<std::string> installed = MapInstalled(parts, *package_index)) {
      return installed;
    }
  }

  std::optional<size_t> best;
  size_t best_matched = 0;
  bool best_whole = false;
  for (size_t index : named->second) {
    const std::vector<std::string_view> file = Components(files_[index]);
    size_t matched = 0;
    while (matched < file.size() && matched < parts.size() &&
           file[file.size() - 1 - matched] == parts[parts.size() - 1 - matched]) {
      ++matched;
    }
    const bool whole = matched == file.size();
    if (!whole && matched < 2) continue;
    if (!package.empty()) {
      // In an interpreter library: the installed package must be part of the repo path,
      // and a bare file name is not enough.
      if (matched < 2 && file.size() > 1) continue;
      if (std::find(file.begin(), file.end(), package) == file.end() &&
          !(file.size() == 1 && file[0] == package)) {
        continue;
      }
      if (file.size() == 1) continue;  // "site-packages/six.py" is not the repo's six.py
    }
    if (!best || matched > best_matched || (matched == best_matched && whole && !best_whole) ||
        (matched == best_matched && whole == best_whole &&
         files_[index].size() < files_[*best].size())) {
      best = index;
      best_matched = matched;
      best_whole = whole;
    }
  }
  if (!best) return std::nullopt;
  return files_[*best];
}

std::optional<std::string> PathMapper::MapInstalled(const std::vector<std::string_view>& parts,
                                                    size_t package_index) const {
  std::string installed;
  for (size_t i = package_index; i < parts.size(); ++i) {
    if (!installed.empty()) installed += '/';
    installed.append(parts[i]);
  }
  for (const std::string& path : layout_.RepoPaths(installed)) {
    if (std::binary_search(files_.begin(), files_.end(), path)) return path;
  }
  // The metadata does not say where: the longest suffix (two components or more, within the
  // installed path) that names one repo file and no other.
  const auto named = by_name_.find(parts.back());
  if (named == by_name_.end()) return std::nullopt;
  const size_t available = parts.size() - package_index;
  std::optional<size_t> best;
  size_t best_matched = 0;
  bool tie = false;
  for (size_t index : named->second) {
    const std::vector<std::string_view> file = Components(files_[index]);
    size_t matched = 0;
    while (matched < file.size() && matched < available &&
           file[file.size() - 1 - matched] == parts[parts.size() - 1 - matched]) {
      ++matched;
    }
    if (matched < 2) continue;
    if (matched > best_matched) {
      best = index;
      best_matched = matched;
      tie = false;
    } else if (matched == best_matched) {
      tie = true;
    }
  }
  if (!best || tie) return std::nullopt;
  return files_[*best];
}

bool PathMapper::IsOtherPackage(std::string_view printed, std::string_view repo_file) const {
  std::string normal(printed);
  std::replace(normal.begin(), normal.end(), '\\', '/');
  const std::string_view package = InstalledPackage(Components(normal));
  if (package.empty() || layout_.Installs(package)) return false;
  // Vendored copies live under folders named for it, before the package's own folder.
  for (std::string_view part : Components(repo_file)) {
    if (part == package) return false;
    if (part == "third_party" || part == "thirdparty" || part == "3rdparty" || part == "vendor" ||
        part == "vendored" || part == "_vendor" || part == "external" || part == "extern" ||
        part == "deps" || part == "submodules") {
      return true;
    }
  }
  return false;
}

bool PathMapper::IsTestFile(std::string_view path) {
  const std::vector<std::string_view> parts = Components(path);
  if (parts.empty()) return false;
  const std::string_view name = parts.back();
  if (name == "conftest.py" || name.starts_with("test_") || name.ends_with("_test.py") ||
      name == "tests.py") {
    return true;
  }
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    if (parts[i] == "tests" || parts[i] == "test" || parts[i] == "testing") return true;
  }
  return false;
}

}  // namespace smallfix
