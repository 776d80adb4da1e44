#ifndef SMALLFIX_ENGINE_INDEX_SYMBOLS_H_
#define SMALLFIX_ENGINE_INDEX_SYMBOLS_H_

#include <string>
#include <vector>

#include "engine/source/signature_edits.h"

namespace smallfix {

// What the repo index records about definitions. Plain values with no tree-sitter nodes in
// them, so an index outlives the documents it was built from.

// One parameter of an indexed def. The bare `*` and `/` markers are not parameters; their
// effect shows in the kinds of the others.
struct ParamInfo {
  std::string name;  // without * or **
  Parameter::Kind kind = Parameter::Kind::kPositionalOrKeyword;
  bool has_default = false;
  std::string default_text;  // source text of the default, "" if none
};

struct FunctionInfo {
  std::string name;  // "reduce"
  std::string
      qualname;  // "Reducer.reduce", "reduce" or "outer.<locals>.inner" (Python's __qualname__)
  std::string module;             // "pkg.zero.reduce"; a package's __init__.py is the package
  std::string file;               // repo-relative path, "pkg/zero/reduce.py"
  int line = 0;                   // 1-based line of the `def` (not of its decorators)
  std::vector<ParamInfo> params;  // as declared, including self/cls
  std::vector<std::string>
      decorators;  // as written without the `@`: "staticmethod", "torch.no_grad()"
  bool is_async = false;
  bool is_method = false;  // defined directly in a class body
  bool is_staticmethod = false;
  bool is_classmethod = false;
  bool is_property = false;    // @property, @x.setter, @cached_property, ...
  std::string class_name;      // enclosing class's name, if a method: "Reducer"
  std::string class_qualname;  // and its qualname: "Reducer" or "make.<locals>.Reducer"

  // The parameters a caller passes: drops self/cls for methods that are not static.
  std::vector<ParamInfo> CallableParams() const;
  // An @overload stub or a property's setter or deleter: a def Python does not leave bound
  // to the name, so a call reaches another def of the same qualname.
  bool IsShadowed() const;
};

struct ClassInfo {
  std::string name;      // "Reducer"
  std::string qualname;  // "Reducer" or "Outer.Reducer"
  std::string module;
  std::string file;
  int line = 0;                    // 1-based line of the `class`
  std::vector<std::string> bases;  // as written: "BaseEngine", "nn.Module", "Generic[T]"
  std::vector<std::string>
      decorators;  // as written without the `@`: "dataclass", "dataclass(frozen=True)"
  // What `self.` reaches without a base: the names its body binds (methods, class
  // attributes) and the attributes its methods assign on their first parameter.
  std::vector<std::string> attributes;
  // It defines __getattr__, __getattribute__ or __slots__, or sets attributes by name
  // (SetsAttributesDynamically in outline.h).
  bool dynamic_attributes = false;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_INDEX_SYMBOLS_H_
