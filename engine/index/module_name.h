#ifndef SMALLFIX_ENGINE_INDEX_MODULE_NAME_H_
#define SMALLFIX_ENGINE_INDEX_MODULE_NAME_H_

#include <optional>
#include <string>
#include <string_view>

namespace smallfix {

// The dotted module name of a repo-relative path: "pkg/zero/reduce.py" -> "pkg.zero.reduce",
// "pkg/__init__.py" -> "pkg". `package_prefix` (e.g. "torch" when the indexed root is itself a
// package) is put in front.
std::string ModuleNameForPath(std::string_view path, std::string_view package_prefix = "");

// True for ".../__init__.py": relative imports there are relative to the module itself.
bool IsPackageInit(std::string_view path);

// The absolute module a relative import names. In module `module` (a package when
// `is_package`), `from ..comm import x` is level 2, name "comm" -> "pkg.comm" for
// "pkg.zero.reduce". nullopt when the dots climb above the top-level package.
std::optional<std::string> ResolveRelativeModule(std::string_view module, bool is_package,
                                                 int level, std::string_view name);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_INDEX_MODULE_NAME_H_
