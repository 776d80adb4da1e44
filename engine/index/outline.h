#ifndef SMALLFIX_ENGINE_INDEX_OUTLINE_H_
#define SMALLFIX_ENGINE_INDEX_OUTLINE_H_

#include <string>
#include <vector>

#include "engine/index/symbols.h"
#include "engine/source/document.h"

namespace smallfix {

// The defs and classes of one module, at any depth, in source order.
struct ModuleOutline {
  std::vector<FunctionInfo> functions;
  std::vector<ClassInfo> classes;
};

// `module` and `file` are copied into every record (file is the repo-relative path).
ModuleOutline OutlineModule(const Document& document, const std::string& module,
                            const std::string& file);

// Python's __qualname__ of the def or class `definition` (a function_definition or
// class_definition), from its enclosing defs and classes.
std::string QualnameOf(const Document& document, TSNode definition);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_INDEX_OUTLINE_H_
