#ifndef SMALLFIX_ENGINE_LOCALIZE_PACKAGE_LAYOUT_H_
#define SMALLFIX_ENGINE_LOCALIZE_PACKAGE_LAYOUT_H_

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace smallfix {

// Where the repo's packages go when it is installed, read from its packaging metadata without
// running it: setup.py (`package_dir=`, `packages=`, `name=` as literals), setup.cfg
// (`[options] package_dir` / `packages`, `[metadata] name`) and pyproject.toml
// (`[tool.setuptools] package-dir` / `packages`, `[tool.setuptools.package-dir]`,
// `[project] name`, poetry's `packages = [{include, from}]`, hatch's wheel `packages` and
// `sources`). A repo whose folder `accelerator/` is installed as `pkg.accelerator` prints
// `.../site-packages/pkg/accelerator/x.py` for its own `accelerator/x.py`.
class PackageLayout {
 public:
  // Reads the metadata files at the repo's root (each at most 1 MB); an empty layout when
  // there are none.
  static PackageLayout ForRepo(const std::string& repo_root);
  // The same from the files' texts ("" when absent): for tests and the fuzz target.
  static PackageLayout FromTexts(std::string_view setup_py, std::string_view setup_cfg,
                                 std::string_view pyproject);

  // The repo-relative paths that an installed path ("pkg/accelerator/x.py", relative to
  // site-packages) may be, most specific mapping first; empty when no mapping applies.
  std::vector<std::string> RepoPaths(std::string_view installed) const;
  // True when the repo installs a top-level package of this name (a mapping's, a listed
  // package's, or the distribution's own name).
  bool Installs(std::string_view package) const;

  bool empty() const { return dirs_.empty() && names_.empty(); }

 private:
  void AddDir(std::string module, std::string dir);
  void AddName(std::string_view dotted);
  // What each metadata file says: setup.py's literals passed to setup(), setup.cfg's
  // [options] and [metadata], pyproject.toml's setuptools, poetry and hatch tables.
  void ReadSetupPy(std::string_view text);
  void ReadSetupCfg(std::string_view text);
  void ReadPyproject(std::string_view text);

  // (installed prefix as a path, "" for every package; repo folder, "" for the root)
  std::vector<std::pair<std::string, std::string>> dirs_;
  std::set<std::string, std::less<>> names_;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_PACKAGE_LAYOUT_H_
