#ifndef SMALLFIX_ENGINE_LOCALIZE_PATH_MAPPER_H_
#define SMALLFIX_ENGINE_LOCALIZE_PATH_MAPPER_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/localize/package_layout.h"

namespace smallfix {

// Maps paths printed on another machine onto the files of a repo.
//
// A printed path ("/home/x/src/proj/pkg/mod.py", ".../site-packages/pkg/mod.py",
// "pkg/mod.py") names the repo file whose path is its longest matching suffix, counted in
// whole components. A match must cover the repo file's whole relative path, or at least its
// file name and one directory; a path in an interpreter's library (site-packages,
// dist-packages, lib/python3.x) must also name the installed package, so that
// ".../site-packages/torch/nn/modules/module.py" never lands on a repo's "nn/modules/module.py".
//
// The repo's own installed copy may be laid out otherwise than the repo (package_layout.h):
// ".../site-packages/pkg/accelerator/x.py" is the repo's "accelerator/x.py" when its
// metadata installs the folder as `pkg.accelerator`. Such a path is mapped through the
// metadata first; for a package the repo installs but whose layout the metadata does not say
// (`find_packages()` with a computed `package_dir`), through the longest path suffix of two
// components or more that names exactly one repo file.
class PathMapper {
 public:
  // Largest number of .py files indexed; a repo beyond it is indexed partially.
  static constexpr size_t kMaxFiles = 200'000;

  // Lists the .py files under `repo_root` (skipping VCS, build and virtualenv folders).
  static absl::StatusOr<PathMapper> ForRepo(const std::string& repo_root);
  // A mapper over a given list of repo-relative files (for tests and callers that have one).
  static PathMapper ForFiles(std::vector<std::string> files, PackageLayout layout = {});

  // The repo-relative file `printed` names, or nullopt for frames outside the repo.
  std::optional<std::string> Map(std::string_view printed) const;

  // True when `printed` lies in an interpreter library under another package that the repo
  // vendors, so that `repo_file` is the vendored copy ("third_party/apex/apex/x.py" for
  // ".../site-packages/apex/x.py"; also vendor/, _vendor/, external/, deps/, submodules/):
  // such frames are kept as sites but rank below the repo's own.
  bool IsOtherPackage(std::string_view printed, std::string_view repo_file) const;

  // Test files and conftest.py: usually not the bug site (tests/, test_*.py, *_test.py).
  static bool IsTestFile(std::string_view repo_relative);

  const std::vector<std::string>& files() const { return files_; }

 private:
  // The repo file an installed path of a package the repo installs is, or nullopt.
  std::optional<std::string> MapInstalled(const std::vector<std::string_view>& parts,
                                          size_t package_index) const;

  std::vector<std::string> files_;
  PackageLayout layout_;
  std::map<std::string, std::vector<size_t>, std::less<>> by_name_;  // file name -> files_
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_PATH_MAPPER_H_
