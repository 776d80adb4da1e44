// RepoIndex::ResolveCall: from a call node to the defs it may reach.
#include <algorithm>

#include "engine/base/concat.h"
#include "engine/index/module_name.h"
#include "engine/index/outline.h"
#include "engine/index/repo_index.h"
#include "engine/index/string_map.h"
#include "engine/index/tree_walk.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// The defs whose bodies hold `node`, innermost first.
std::vector<TSNode> EnclosingFunctions(TSNode node) {
  std::vector<TSNode> functions;
  TSNode child = node;
  for (TSNode parent = ts_node_parent(node); !ts_node_is_null(parent);
       child = parent, parent = ts_node_parent(parent)) {
    if (IsType(parent, "function_definition") && ts_node_eq(Field(parent, "body"), child)) {
      functions.push_back(parent);
    }
  }
  return functions;
}

bool HasDecorator(const Document& document, TSNode function, std::string_view name) {
  TSNode parent = ts_node_parent(function);
  if (!IsType(parent, "decorated_definition")) return false;
  bool found = false;
  ForEachNamedChild(parent, [&](TSNode decorator) {
    if (!IsType(decorator, "decorator")) return;
    std::string_view text = Trim(document.NodeText(decorator));
    if (text.starts_with("@")) text.remove_prefix(1);
    found |= text == name || text.ends_with(Concat(".", name));
  });
  return found;
}

// A name, or a chain of attributes on one: `mod`, `pkg.mod`, `a.b.c`. Empty otherwise.
std::vector<std::string_view> DottedParts(const Document& document, TSNode node) {
  if (IsType(node, "identifier")) return {document.NodeText(node)};
  if (!IsType(node, "attribute")) return {};
  std::vector<std::string_view> parts = DottedParts(document, Field(node, "object"));
  if (parts.empty()) return parts;
  parts.push_back(document.NodeText(Field(node, "attribute")));
  return parts;
}

}  // namespace

std::vector<const FunctionInfo*> RepoIndex::ResolveCall(const Document& document,
                                                        TSNode call) const {
  return ResolveCallTarget(document, call).functions;
}

struct RepoIndex::CallSite {
  std::string module_name;
  const Module* module = nullptr;  // null: a file outside the index
  Imports imports;                 // the imports the call sees
  std::vector<TSNode> functions;   // the defs around the call, innermost first
  int class_index = -1;            // the class of the method the call is in
  std::string self_name;           // the name the method's first parameter goes by
  bool in_classmethod = false;
};

CallTarget RepoIndex::InClass(int start, std::vector<int> found, CallTarget::Via via) const {
  CallTarget target;
  target.functions = ToPointers(found);
  target.via = via;
  target.certain = !found.empty() && PlainPathTo(start, ClassIndexOf(functions_[found.front()]));
  return target;
}

CallTarget RepoIndex::TargetCallees(const Target& target, int owner_class) const {
  using Via = CallTarget::Via;
  if (target.kind == Target::Kind::kClass) {
    return InClass(target.class_index, FindMethodIndices(target.class_index, "__init__", false),
                   Via::kConstructor);
  }
  if (target.kind != Target::Kind::kFunctions) return CallTarget();
  if (owner_class >= 0) return InClass(owner_class, target.functions, Via::kClassAttribute);
  CallTarget found;
  found.functions = ToPointers(target.functions);
  found.via = Via::kFunction;
  found.certain = !found.functions.empty();
  return found;
}

RepoIndex::CallSite RepoIndex::CallSiteOf(const Document& document, TSNode call) const {
  CallSite site;
  const size_t byte = ts_node_start_byte(call);
  site.module_name = ModuleNameOf(document.path());
  const bool is_package = IsPackageInit(document.path());
  if (auto it = module_by_name_.find(site.module_name); it != module_by_name_.end()) {
    site.module = &modules_[it->second];
  }

  // The imports the call sees, read from the document itself (it may be newer than the
  // index): an import in an enclosing def shadows one at the top.
  StringMap<size_t> scope_of;
  for (ImportBinding& binding : ImportsOf(document, site.module_name, is_package)) {
    if (byte < binding.scope_start || byte > binding.scope_end) continue;
    if (binding.name == "*") {
      site.imports.stars.push_back(binding.module);
      continue;
    }
    auto [it, inserted] = scope_of.emplace(binding.local_name, binding.scope_start);
    if (!inserted && it->second > binding.scope_start) continue;
    it->second = binding.scope_start;
    site.imports.named.insert_or_assign(binding.local_name, std::move(binding));
  }

  // The method the call is in (through nested defs: `self` is a closure there), its class
  // and the name its first parameter goes by.
  site.functions = EnclosingFunctions(call);
  for (TSNode enclosing : site.functions) {
    TSNode cls = ClassOfMethod(enclosing);
    if (ts_node_is_null(cls)) continue;
    site.class_index = FindClassIndex(site.module, QualnameOf(document, cls));
    if (site.class_index < 0) {
      // A file outside the index: a class of that name, if only one has it.
      auto it = classes_by_name_.find(document.NodeText(Field(cls, "name")));
      if (it != classes_by_name_.end() && it->second.size() == 1) site.class_index = it->second[0];
    }
    const std::vector<Parameter> params = Parameters(document, enclosing);
    if (!HasDecorator(document, enclosing, "staticmethod") && !params.empty() &&
        params.front().kind != Parameter::Kind::kVarPositional) {
      site.self_name = params.front().name;
      site.in_classmethod = HasDecorator(document, enclosing, "classmethod");
    }
    break;
  }
  return site;
}

CallTarget RepoIndex::ResolveCallTarget(const Document& document, TSNode call) const {
  if (!IsType(call, "call")) return CallTarget();
  const CallSite site = CallSiteOf(document, call);
  TSNode function = Field(call, "function");
  if (IsType(function, "identifier")) {
    return ResolveNameCall(document, site, document.NodeText(function));
  }
  if (!IsType(function, "attribute")) return CallTarget();
  return ResolveAttributeCall(document, site, function);
}

CallTarget RepoIndex::ResolveNameCall(const Document& document, const CallSite& site,
                                      std::string_view name) const {
  // cls(...) in a classmethod; self(...) is __call__, not __init__.
  if (name == site.self_name && site.class_index >= 0) {
    return site.in_classmethod
               ? TargetCallees(Target{Target::Kind::kClass, "", {}, site.class_index}, -1)
               : CallTarget();
  }
  // An import inside the def shadows the module's own def of that name.
  if (auto it = site.imports.named.find(name);
      it != site.imports.named.end() && !it->second.top_level) {
    return TargetCallees(ResolveImport(it->second, 1), -1);
  }
  for (TSNode enclosing : site.functions) {
    const std::string local = Concat(QualnameOf(document, enclosing), ".<locals>.", name);
    if (site.module == nullptr) break;
    if (auto it = site.module->functions.find(local); it != site.module->functions.end()) {
      return TargetCallees(Target{Target::Kind::kFunctions, "", it->second, -1}, -1);
    }
    if (int nested = FindClassIndex(site.module, local); nested >= 0) {
      return TargetCallees(Target{Target::Kind::kClass, "", {}, nested}, -1);
    }
  }
  return TargetCallees(ResolveName(site.module, name, site.imports, 0), -1);
}

CallTarget RepoIndex::ResolveAttributeCall(const Document& document, const CallSite& site,
                                           TSNode function) const {
  using Via = CallTarget::Via;
  TSNode object = Field(function, "object");
  const std::string_view attribute = document.NodeText(Field(function, "attribute"));
  // super().m(...) and super(Cls, self).m(...)
  if (IsType(object, "call") && document.NodeText(Field(object, "function")) == "super") {
    int start = site.class_index;
    const std::vector<TSNode> args = NamedChildrenSkippingComments(Field(object, "arguments"));
    if (!args.empty()) {
      Target named = ResolveDotted(site.module, document.NodeText(args.front()), 0);
      if (named.kind == Target::Kind::kClass) start = named.class_index;
    }
    if (start < 0) return CallTarget();
    return InClass(start, FindMethodIndices(start, attribute, /*skip_self=*/true), Via::kSuper);
  }
  // self.m(...) and cls.m(...)
  if (IsType(object, "identifier") && document.NodeText(object) == site.self_name &&
      site.class_index >= 0) {
    return InClass(site.class_index, FindMethodIndices(site.class_index, attribute, false),
                   site.in_classmethod ? Via::kClassAttribute : Via::kBoundMethod);
  }
  // mod.f(...), pkg.mod.f(...), Cls.m(...)
  const std::vector<std::string_view> parts = DottedParts(document, object);
  if (!parts.empty()) {
    bool local = false;  // a local class: `Cls.m(...)` with Cls defined in the def
    Target target;
    for (TSNode enclosing : site.functions) {
      const int nested = FindClassIndex(
          site.module, Concat(QualnameOf(document, enclosing), ".<locals>.", parts.front()));
      if (nested >= 0) {
        target.kind = Target::Kind::kClass;
        target.class_index = nested;
        local = true;
        break;
      }
    }
    if (!local) {
      auto it = site.imports.named.find(parts.front());
      target = it != site.imports.named.end() && !it->second.top_level
                   ? ResolveImport(it->second, 1)
                   : ResolveName(site.module, parts.front(), site.imports, 0);
    }
    for (size_t i = 1; i < parts.size() && target.kind != Target::Kind::kNone; ++i) {
      target = ResolveAttribute(target, parts[i], 0);
    }
    if (target.kind == Target::Kind::kExternal) return CallTarget();
    if (target.kind != Target::Kind::kNone) {
      return TargetCallees(ResolveAttribute(target, attribute, 0),
                           target.kind == Target::Kind::kClass ? target.class_index : -1);
    }
  }
  CallTarget guess;
  guess.functions = GuessMethod(attribute, site.module_name, site.imports);
  guess.via = guess.functions.empty() ? Via::kNone : Via::kGuess;
  return guess;
}

std::vector<const FunctionInfo*> RepoIndex::Overrides(const FunctionInfo& method) const {
  std::vector<const FunctionInfo*> overrides;
  const int base = ClassIndexOf(method);
  auto it = functions_by_name_.find(method.name);
  if (base < 0 || it == functions_by_name_.end()) return overrides;
  for (int index : it->second) {
    const FunctionInfo& other = functions_[index];
    if (&other == &method || !other.is_method || other.IsShadowed()) continue;
    const int cls = ClassIndexOf(other);
    if (cls < 0 || cls == base) continue;
    const std::vector<int> order = Linearize(cls);
    if (std::find(order.begin(), order.end(), base) != order.end()) overrides.push_back(&other);
  }
  return overrides;
}

int RepoIndex::ClassIndexOf(const FunctionInfo& method) const {
  if (!method.is_method) return -1;
  return FindClassIndex(FindModule(method.module), method.class_qualname);
}

bool RepoIndex::PlainPathTo(int class_index, int defining) const {
  if (class_index < 0 || defining < 0) return false;
  for (int current : Linearize(class_index)) {
    const ClassInfo& cls = classes_[current];
    if (!cls.decorators.empty()) return false;
    // A class defined twice under one name (in two branches, or again in a test): which one
    // the call meets depends on the run.
    auto same = classes_by_name_.find(cls.name);
    if (same != classes_by_name_.end() &&
        std::count_if(same->second.begin(), same->second.end(), [&](int other) {
          return classes_[other].module == cls.module && classes_[other].qualname == cls.qualname;
        }) > 1) {
      return false;
    }
    if (current == defining) return true;
    // Bases the index did not follow (outside the repo) may define the method first;
    // object, ABC and typing's Generic and Protocol define none that matters.
    size_t harmless = 0;
    for (const std::string& base : cls.bases) {
      const std::string_view name = Trim(std::string_view(base).substr(0, base.find('[')));
      harmless += name == "object" || name == "ABC" || name == "abc.ABC" ||
                  name.ends_with("Generic") || name.ends_with("Protocol");
    }
    if (class_bases_[current].size() + harmless < cls.bases.size()) return false;
  }
  return false;
}

std::vector<const FunctionInfo*> RepoIndex::GuessMethod(std::string_view name,
                                                        std::string_view module,
                                                        const Imports& imports) const {
  auto it = functions_by_name_.find(name);
  if (it == functions_by_name_.end()) return {};
  std::vector<int> methods;
  for (int index : it->second) {
    if (functions_[index].is_method && !functions_[index].IsShadowed()) methods.push_back(index);
  }
  if (methods.empty() || methods.size() > kMaxGuesses) return {};
  // Nearest first: this module, then the modules it imports from, then the rest.
  auto rank = [&](int index) {
    const std::string& home = functions_[index].module;
    if (home == module) return 0;
    for (const auto& [local, binding] : imports.named) {
      if (binding.module == home || Concat(binding.module, ".", binding.name) == home) return 1;
    }
    return 2;
  };
  std::stable_sort(methods.begin(), methods.end(), [&](int a, int b) { return rank(a) < rank(b); });
  return ToPointers(methods);
}

}  // namespace smallfix
