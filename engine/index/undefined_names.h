#ifndef SMALLFIX_ENGINE_INDEX_UNDEFINED_NAMES_H_
#define SMALLFIX_ENGINE_INDEX_UNDEFINED_NAMES_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/source/document.h"

namespace smallfix {

// A name a module reads that nothing in it binds: a missing import, or a slip for a name
// that is bound (`weight` for `fc1_weight`). Python raises NameError when the read runs.
struct UndefinedName {
  std::string name;
  int line = 0;               // 1-based line of the first read
  std::vector<size_t> reads;  // start bytes of every read, in source order
  // The attributes read on it (`importlib.util.find_spec` -> "util"), each once, first seen
  // first: for a missing module, the submodules the file may need to import too.
  std::vector<std::string> attributes;
};

// The names `document` reads that are bound nowhere in it (by any assignment, loop, with,
// except, import, def, class, parameter, :=, global or match capture, at any depth) and are
// not builtins, in order of first read. Deliberately coarse about scopes: a name bound in one
// def and read in another is not reported, so whatever is reported really is undefined.
// nullopt when the module can bind names the analysis cannot see: `from m import *`,
// globals() or exec(), or a syntax error. Reads guarded by `except NameError` (or a bare or
// catch-all except) are not reported: that is a deliberate probe.
std::optional<std::vector<UndefinedName>> UndefinedNames(const Document& document);

// A builtin or a name every module, class body or method has (__file__, __class__, ...).
bool IsImplicitName(std::string_view name);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_INDEX_UNDEFINED_NAMES_H_
