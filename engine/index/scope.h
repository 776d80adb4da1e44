#ifndef SMALLFIX_ENGINE_INDEX_SCOPE_H_
#define SMALLFIX_ENGINE_INDEX_SCOPE_H_

#include <tree_sitter/api.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/source/document.h"

namespace smallfix {

struct ScopeName {
  enum class Kind {
    kParameter,     // of an enclosing def or lambda
    kLocal,         // bound in an enclosing def (or class body): assignment, with, except, :=, def
    kLoopVariable,  // a for target, or a comprehension's (only inside the comprehension)
    kGlobal,        // bound at module level: assignment, def, class, for
    kImport,        // bound by an import, at any level
    kBuiltin,       // print, len, ValueError, ...
    kAttribute,     // "self.x": assigned on self in a method of the enclosing class
  };
  std::string name;
  Kind kind = Kind::kLocal;
  int line = 0;  // 1-based line of the definition; 0 for builtins
};

// The names a Python expression at `byte` could use, nearest scope first, each once (the
// nearest definition wins):
//   - comprehension variables, only inside their comprehension; lambda parameters;
//   - the parameters of the enclosing defs (closures too) and the names bound in them before
//     `byte`: assignments (tuple, starred, annotated and augmented targets, chained), for,
//     with and except targets (an except name only inside its handler), :=, imports, nested
//     defs and classes;
//   - the class body's names before `byte`, when `byte` is directly in a class body;
//   - `self.<attr>` for attributes assigned on the first parameter in any method of the
//     enclosing method's class, and the names its class body binds (named after the
//     enclosing method's first parameter: "self.x" or "cls.x");
//   - module-level names bound anywhere in the module, then builtins.
// Names a statement binds become visible after it: in `x = f(x)` the `x` inside the call is
// the earlier one, if any. Not modelled: `global`/`nonlocal`, `del`, match-case captures.
std::vector<ScopeName> NamesInScope(const Document& document, size_t byte);

// What `self.` reaches in the class `cls` (a class_definition) by its own code: the names its
// body binds (methods, class attributes) and the attributes any of its methods assigns on
// its first parameter, each once, in source order. Bases are not followed.
std::vector<std::string> ClassAttributeNames(const Document& document, TSNode cls);

// True when `name` ("x" or "self.x") is among NamesInScope(document, byte).
bool IsNameInScope(const Document& document, size_t byte, std::string_view name);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_INDEX_SCOPE_H_
