#include "engine/index/module_name.h"

#include "engine/base/concat.h"

namespace smallfix {

bool IsPackageInit(std::string_view path) {
  return path == "__init__.py" || path.ends_with("/__init__.py");
}

std::string ModuleNameForPath(std::string_view path, std::string_view package_prefix) {
  std::string_view stem = path;
  if (stem.starts_with("./")) stem.remove_prefix(2);
  if (IsPackageInit(stem)) {
    stem.remove_suffix(std::string_view("__init__.py").size());
    if (stem.ends_with('/')) stem.remove_suffix(1);
  } else if (stem.ends_with(".py")) {
    stem.remove_suffix(3);
  }
  std::string name(stem);
  for (char& c : name) {
    if (c == '/' || c == '\\') c = '.';
  }
  if (package_prefix.empty()) return name;
  return name.empty() ? std::string(package_prefix) : Concat(package_prefix, ".", name);
}

std::optional<std::string> ResolveRelativeModule(std::string_view module, bool is_package,
                                                 int level, std::string_view name) {
  // The package a relative import starts from: the module itself for an __init__.py.
  std::string_view base = module;
  int climbs = is_package ? level - 1 : level;
  for (; climbs > 0; --climbs) {
    const size_t dot = base.rfind('.');
    if (dot == std::string_view::npos) {
      if (base.empty()) return std::nullopt;
      base = "";
    } else {
      base = base.substr(0, dot);
    }
  }
  if (base.empty()) {
    // `from .x import y` in a top-level module: the sibling module is the best guess.
    if (name.empty()) return std::nullopt;
    return std::string(name);
  }
  if (name.empty()) return std::string(base);
  return Concat(base, ".", name);
}

}  // namespace smallfix
