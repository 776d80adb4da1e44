#ifndef SMALLFIX_ENGINE_INDEX_REPO_INDEX_H_
#define SMALLFIX_ENGINE_INDEX_REPO_INDEX_H_

#include <tree_sitter/api.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/index/imports.h"
#include "engine/index/string_map.h"
#include "engine/index/symbols.h"
#include "engine/source/document.h"

namespace smallfix {

// The defs, classes and imports of every Python file in a repo, so templates can ask what a
// call reaches and what its signature is.
//
// The index keeps plain values, never trees: it is built once per run and outlives the
// documents. Module names come from repo-relative paths; when the indexed root is itself a
// package (it holds an __init__.py, e.g. .../dist-packages/torch), its directory name is put
// in front ("torch.nn.modules.linear"), as Python would name them. Imports of modules the
// repo does not hold (torch in a DeepSpeed checkout) resolve to nothing rather than to a guess.
// Immutable after it is built; safe to query from several threads. Pointers it returns stay
// valid while the index lives (also across a move).
struct RepoIndexOptions {
  size_t max_files = 20000;
  size_t max_file_bytes = 8 << 20;
};

// What a call reaches, how, and whether the index is sure of it: for checking the call's
// arguments against the signature with no failure to confirm it.
struct CallTarget {
  enum class Via {
    kNone,
    kFunction,        // f(...), mod.f(...): a def reached by name
    kConstructor,     // Cls(...), mod.Cls(...), cls(...): __init__, Python passes self
    kBoundMethod,     // self.m(...): Python passes self (or cls); a subclass may override m
    kSuper,           // super().m(...): the base's m, Python passes self
    kClassAttribute,  // Cls.m(...), cls.m(...) in a classmethod: self is passed by the call
    kGuess,           // obj.m(...) with obj unknown: the few methods named m
  };
  std::vector<const FunctionInfo*> functions;  // best guess first, as ResolveCall
  Via via = Via::kNone;
  // False where Python may reach a def the index does not see first: a guess by name, or a
  // class on the way with a base outside the repo (it may define the method) or a decorator
  // (a dataclass writes its own __init__).
  bool certain = false;
};

class RepoIndex {
 public:
  using Options = RepoIndexOptions;

  // Indexes every .py file under `root` (see IsSkippedDirectory for what it does not enter).
  // Files that cannot be read or parsed (non-UTF-8, too large) and files beyond max_files are
  // skipped and listed in skipped(). NotFound or InvalidArgument when `root` is not a directory.
  static absl::StatusOr<RepoIndex> Build(const std::string& root, const Options& options = {});
  // An index of documents already parsed; each Document::path() is repo-relative.
  static RepoIndex FromDocuments(const std::vector<Document>& documents);

  // The functions `call` (a `call` node of `document`) may reach, best guess first; empty when
  // the callee is not in the repo or cannot be told. `document.path()` is repo-relative and the
  // document may be a newer version of an indexed file (imports are read from it). Handles:
  //   f(...)          a def in an enclosing def, in the module, or imported (`from m import f
  //                   as g`, relative imports, re-exports through __init__.py, `import *`);
  //                   a class -> its __init__, or the nearest base's found in the repo
  //   mod.f(...)      `import pkg.mod as mod`, `from pkg import mod`, `import pkg.mod`
  //   Cls.m(...)      a method of a class the name resolves to (note: the call passes self)
  //   self.m(...), cls.m(...)   m in the enclosing class, then its bases (depth-first, left to
  //                   right); cls(...) -> the enclosing class's __init__
  //   super().m(...), super(Cls, self).m(...)   m in the bases
  //   obj.m(...)      methods named m anywhere, when at most kMaxGuesses exist: same module
  //                   first, then modules the document imports, then the rest
  std::vector<const FunctionInfo*> ResolveCall(const Document& document, TSNode call) const;
  // The same resolution, with how the call reached its defs and whether it is certain.
  CallTarget ResolveCallTarget(const Document& document, TSNode call) const;
  // The methods of classes deriving from `method`'s class (in the repo) that override it:
  // a self.m(...) call in the base class may reach any of them.
  std::vector<const FunctionInfo*> Overrides(const FunctionInfo& method) const;

  // Every def named `name` (functions and methods), in index order.
  std::vector<const FunctionInfo*> FunctionsNamed(std::string_view name) const;
  // The class `name` (a qualname: "Engine" or "Outer.Inner") of `module`; nullptr if none.
  const ClassInfo* FindClass(std::string_view module, std::string_view name) const;
  // `name` looked up in the class and then its bases found in the repo; empty if none.
  std::vector<const FunctionInfo*> FindMethod(const ClassInfo& cls, std::string_view name) const;
  // The module name the index gives a repo-relative path.
  std::string ModuleNameOf(std::string_view path) const;

  // A module (by name and repo-relative file) that defines a name at its top level.
  struct Definer {
    std::string module;
    std::string file;
    bool is_submodule = false;  // the name is a submodule of this package, not a def in it
  };
  // The modules whose top level defines `name` by a def, a class or an assignment (not an
  // import), and the packages that hold a submodule `name`, in index order.
  std::vector<Definer> ModulesDefining(std::string_view name) const;
  // Whether `module`'s top level binds `name`: a def, class, assignment or import there, or a
  // submodule of that name. nullopt when the index cannot tell: the module is not in the
  // repo, it has `from m import *` or a module-level __getattr__.
  std::optional<bool> ModuleBinds(std::string_view module, std::string_view name) const;
  // A module or package (also a namespace package) of the repo.
  bool HasModule(std::string_view name) const { return IsModuleOrPackage(name); }
  // A package with an __init__.py in the repo.
  bool IsPackage(std::string_view name) const;
  // The name code imports `module` by: the index's name without leading folders that are not
  // packages ("src.pkg.mod" -> "pkg.mod" in a src/ layout).
  std::string ImportableName(std::string_view module) const;
  // True when some module assigns an attribute of this name on some object.
  bool AssignsAttribute(std::string_view name) const { return assigned_attributes_.contains(name); }
  // What `self.` reaches in `cls`: its attributes (ClassInfo::attributes) and those of its
  // bases. nullopt when that cannot be known: a base is neither in the repo nor a plain root
  // (object, ABC, Generic, nn.Module), or a class on the way defines __getattr__ or __slots__.
  std::optional<std::vector<std::string>> ClassAttributes(const ClassInfo& cls) const;

  const std::vector<FunctionInfo>& functions() const { return functions_; }
  const std::vector<ClassInfo>& classes() const { return classes_; }
  // Repo-relative paths of the files not indexed; skip_reasons() says why, one per path.
  const std::vector<std::string>& skipped() const { return skipped_; }
  const std::vector<std::string>& skip_reasons() const { return skip_reasons_; }
  size_t module_count() const { return modules_.size(); }

  // obj.m(...) with an unknown obj resolves by name only when so few defs share it.
  static constexpr size_t kMaxGuesses = 4;

 private:
  // Names bound by imports in one module: by local name (the last import wins), and the
  // sources of `from m import *`.
  struct Imports {
    StringMap<ImportBinding> named;
    std::vector<std::string> stars;
  };
  struct Module {
    std::string name;
    std::string file;
    bool is_package = false;
    // qualname -> defs with it, the one Python ends up binding first.
    StringMap<std::vector<int>> functions;
    StringMap<int> classes;    // qualname -> index into classes_
    Imports imports;           // top-level ones
    StringSet globals;         // names assigned at the top level
    bool has_getattr = false;  // a module-level __getattr__
  };
  // What a name or dotted expression stands for.
  struct Target {
    enum class Kind { kNone, kModule, kFunctions, kClass, kExternal };
    Kind kind = Kind::kNone;
    std::string module;          // kModule: the module's name
    std::vector<int> functions;  // kFunctions
    int class_index = -1;        // kClass
  };

  RepoIndex() = default;
  void AddDocument(const Document& document, const std::string& package_prefix);
  void Finish();  // orders defs and resolves class bases once every module is in

  const Module* FindModule(std::string_view name) const;
  const Module* FindModuleExact(std::string_view name) const;  // no src/ suffix guess
  bool IsModuleOrPackage(std::string_view name) const;
  // `name` at the top level of `module` (may be null: a file not in the index), seeing the
  // names `imports` binds.
  Target ResolveName(const Module* module, std::string_view name, const Imports& imports,
                     int depth) const;
  Target ResolveImport(const ImportBinding& binding, int depth) const;
  Target ResolveAttribute(const Target& base, std::string_view name, int depth) const;
  Target ResolveDotted(const Module* module, std::string_view dotted, int depth) const;
  std::vector<int> Linearize(int class_index) const;  // the class, then its bases, no repeats
  std::vector<int> FindMethodIndices(int class_index, std::string_view name, bool skip_self) const;
  int FindClassIndex(const Module* module, std::string_view qualname) const;
  std::vector<const FunctionInfo*> Constructor(int class_index) const;
  // True when nothing the index cannot see stands before `defining` in `class_index`'s
  // method order: no class on the way has a base outside the repo or a decorator.
  bool PlainPathTo(int class_index, int defining) const;
  int ClassIndexOf(const FunctionInfo& method) const;
  std::vector<const FunctionInfo*> Callees(const Target& target) const;
  // obj.m(...) with obj unknown: the methods named m, when few.
  std::vector<const FunctionInfo*> GuessMethod(std::string_view name, std::string_view module,
                                               const Imports& imports) const;
  std::vector<const FunctionInfo*> ToPointers(const std::vector<int>& indices) const;
  // ResolveCallTarget's steps (resolve_call.cc): where the call stands (its module, the
  // imports it sees, the method it is in), then a call of a name or of an attribute.
  struct CallSite;
  CallSite CallSiteOf(const Document& document, TSNode call) const;
  CallTarget ResolveNameCall(const Document& document, const CallSite& site,
                             std::string_view name) const;
  CallTarget ResolveAttributeCall(const Document& document, const CallSite& site,
                                  TSNode function) const;
  // A class's __init__, or a method looked up from `start` in its method order.
  CallTarget InClass(int start, std::vector<int> found, CallTarget::Via via) const;
  // A name or attribute the index resolved: a def (of a module, or of a class: unbound) or a
  // class.
  CallTarget TargetCallees(const Target& target, int owner_class) const;

  std::string package_prefix_;
  std::vector<FunctionInfo> functions_;
  std::vector<ClassInfo> classes_;
  std::vector<std::vector<int>> class_bases_;  // parallel to classes_: bases found in the repo
  std::vector<int> class_module_;              // parallel to classes_: index into modules_
  std::vector<Module> modules_;
  StringMap<int> module_by_name_;
  // "pkg.mod" -> modules named "src.pkg.mod", for src/ layouts and scripts run from a folder.
  StringMap<std::vector<int>> module_by_suffix_;
  StringSet packages_;  // every dotted prefix of a module name
  StringMap<std::vector<int>> functions_by_name_;
  StringMap<std::vector<int>> classes_by_name_;
  StringMap<std::vector<int>> top_level_definers_;  // name -> modules defining it at the top level
  StringSet assigned_attributes_;
  std::vector<std::string> skipped_;
  std::vector<std::string> skip_reasons_;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_INDEX_REPO_INDEX_H_
