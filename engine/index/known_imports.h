#ifndef SMALLFIX_ENGINE_INDEX_KNOWN_IMPORTS_H_
#define SMALLFIX_ENGINE_INDEX_KNOWN_IMPORTS_H_

#include <string>
#include <string_view>
#include <vector>

namespace smallfix {

// Facts about where well-known names come from, for a file that reads a name it never
// imports.

// A top-level module of Python's standard library (3.11's sys.stdlib_module_names, without
// the private and platform-only ones): "os", "importlib".
bool IsStdlibModule(std::string_view name);

// The standard-library module that a well-known name is taken from by `from M import name`
// ("Optional" -> "typing", "dataclass" -> "dataclasses", "partial" -> "functools"); "" if none.
std::string_view StdlibModuleOf(std::string_view name);

// The submodules of a standard-library package that `import package` does not load, so code
// reading `package.sub.x` must import them itself ("importlib" -> util, metadata, ...).
std::vector<std::string_view> UnloadedSubmodules(std::string_view package);

// The import statement of a conventional alias of a common third-party package:
// "np" -> "import numpy as np", "F" -> "import torch.nn.functional as F"; "" if none.
std::string_view ConventionalImport(std::string_view name);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_INDEX_KNOWN_IMPORTS_H_
