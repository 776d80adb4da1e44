#ifndef SMALLFIX_ENGINE_INDEX_OUTLINE_H_
#define SMALLFIX_ENGINE_INDEX_OUTLINE_H_

#include <string>
#include <string_view>
#include <vector>

#include "engine/index/symbols.h"
#include "engine/source/document.h"

namespace smallfix {

// The defs and classes of one module, at any depth, in source order.
struct ModuleOutline {
  std::vector<FunctionInfo> functions;
  std::vector<ClassInfo> classes;
  // Names assigned at module level (also under a top-level if or try): constants, aliases.
  std::vector<std::string> globals;
  // Attribute names the module assigns on any object (`x.name = ...`, `setattr(x, "name", ...)`).
  std::vector<std::string> assigned_attributes;
  bool has_module_getattr = false;  // a module-level def __getattr__ (PEP 562)
};

// `module` and `file` are copied into every record (file is the repo-relative path).
ModuleOutline OutlineModule(const Document& document, const std::string& module,
                            const std::string& file);

// True when a class's code can give `self` attributes no assignment shows: setattr, the
// instance __dict__, or nn.Module's register_parameter / register_buffer / add_module /
// register_module (reached through nn.Module.__getattr__).
bool SetsAttributesDynamically(std::string_view class_text);

// Python's __qualname__ of the def or class `definition` (a function_definition or
// class_definition), from its enclosing defs and classes.
std::string QualnameOf(const Document& document, TSNode definition);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_INDEX_OUTLINE_H_
