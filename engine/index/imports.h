#ifndef SMALLFIX_ENGINE_INDEX_IMPORTS_H_
#define SMALLFIX_ENGINE_INDEX_IMPORTS_H_

#include <tree_sitter/api.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/source/document.h"

namespace smallfix {

// One name that an import statement binds, with relative imports made absolute.
//   import a.b.c as m            -> m: module "a.b.c"
//   import a.b.c                 -> a: module "a" (the statement also loads "a.b.c")
//   from ..comm import f as g    -> g: module "pkg.comm", name "f" (in pkg/zero/x.py)
//   from pkg import *            -> *: module "pkg", name "*"
struct ImportBinding {
  std::string local_name;
  std::string module;   // absolute; "" when a relative import climbs out of the repo
  std::string name;     // the attribute taken from `module`; "" for `import module`
  int line = 0;         // 1-based
  size_t end_byte = 0;  // the name is bound once the statement has run
  // The def (or the module) whose scope the name is bound in: [scope_start, scope_end).
  size_t scope_start = 0;
  size_t scope_end = 0;
  bool top_level = true;  // bound at module level (also inside if/try at module level)
};

// The bindings of one import_statement, import_from_statement or future_import_statement
// (empty for any other node). `module` and `is_package` describe the importing file.
std::vector<ImportBinding> ImportBindings(const Document& document, TSNode statement,
                                          std::string_view module, bool is_package);

// Every import in the document, in source order, also those inside defs and classes.
std::vector<ImportBinding> ImportsOf(const Document& document, std::string_view module,
                                     bool is_package);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_INDEX_IMPORTS_H_
