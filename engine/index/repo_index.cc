#include "engine/index/repo_index.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/index/module_name.h"
#include "engine/index/outline.h"
#include "engine/index/python_files.h"
#include "engine/index/tree_walk.h"

namespace smallfix {
namespace {

// Re-exports can chain (pkg/__init__.py -> pkg/engine/__init__.py -> ...) and cycle.
constexpr int kMaxDepth = 12;

absl::StatusOr<std::string> ReadFile(const std::filesystem::path& path, size_t max_bytes) {
  std::error_code error;
  const uintmax_t size = std::filesystem::file_size(path, error);
  if (error) return absl::NotFoundError(Concat("cannot read: ", error.message()));
  if (size > max_bytes) {
    return absl::ResourceExhaustedError(
        absl::StrFormat("%d bytes, more than the %d the index reads", size, max_bytes));
  }
  std::ifstream in(path, std::ios::binary);
  std::string text(static_cast<size_t>(size), '\0');
  if (!in.read(text.data(), static_cast<std::streamsize>(size))) {
    return absl::DataLossError("cannot read the whole file");
  }
  return text;
}

}  // namespace

absl::StatusOr<RepoIndex> RepoIndex::Build(const std::string& root, const Options& options) {
  SMALLFIX_ASSIGN_OR_RETURN(std::vector<std::string> files, ListPythonFiles(root));
  RepoIndex index;
  const std::filesystem::path base(root);
  std::error_code error;
  // A root that is itself a package (it has an __init__.py) is imported by its own name.
  if (std::filesystem::exists(base / "__init__.py", error)) {
    index.package_prefix_ = std::filesystem::weakly_canonical(base, error).filename().string();
  }
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string& file = (files)[i];
    if (i >= options.max_files) {
      index.skipped_.push_back(file);
      index.skip_reasons_.push_back(
          absl::StrFormat("more than max_files (%d) Python files", options.max_files));
      continue;
    }
    absl::StatusOr<std::string> text = ReadFile(base / file, options.max_file_bytes);
    absl::StatusOr<Document> document =
        text.ok() ? Document::Parse(file, *std::move(text)) : text.status();
    if (!document.ok()) {
      index.skipped_.push_back(file);
      index.skip_reasons_.emplace_back(document.status().message());
      continue;
    }
    index.AddDocument(*document, index.package_prefix_);
  }
  index.Finish();
  return index;
}

RepoIndex RepoIndex::FromDocuments(const std::vector<Document>& documents) {
  RepoIndex index;
  for (const Document& document : documents) index.AddDocument(document, "");
  index.Finish();
  return index;
}

std::string RepoIndex::ModuleNameOf(std::string_view path) const {
  return ModuleNameForPath(path, package_prefix_);
}

void RepoIndex::AddDocument(const Document& document, const std::string& package_prefix) {
  std::string file = document.path();
  if (file.starts_with("./")) file.erase(0, 2);
  Module module;
  module.name = ModuleNameForPath(file, package_prefix);
  module.file = file;
  module.is_package = IsPackageInit(file);
  if (auto it = module_by_name_.find(module.name); it != module_by_name_.end()) {
    // pkg.py beside pkg/__init__.py: Python imports the package.
    skipped_.push_back(file);
    skip_reasons_.push_back(
        Concat("module ", module.name, " is already indexed from ", modules_[it->second].file));
    return;
  }
  const int module_index = static_cast<int>(modules_.size());

  ModuleOutline outline = OutlineModule(document, module.name, file);
  module.has_getattr = outline.has_module_getattr;
  auto add_definer = [&](const std::string& name) {
    std::vector<int>& modules = top_level_definers_[name];
    if (modules.empty() || modules.back() != module_index) modules.push_back(module_index);
  };
  for (std::string& name : outline.globals) {
    add_definer(name);
    module.globals.insert(std::move(name));
  }
  for (std::string& name : outline.assigned_attributes)
    assigned_attributes_.insert(std::move(name));
  for (const FunctionInfo& function : outline.functions) {
    if (function.qualname == function.name) add_definer(function.name);
  }
  for (const ClassInfo& cls : outline.classes) {
    if (cls.qualname == cls.name) add_definer(cls.name);
  }
  for (FunctionInfo& function : outline.functions) {
    const int index = static_cast<int>(functions_.size());
    module.functions[function.qualname].push_back(index);
    functions_by_name_[function.name].push_back(index);
    functions_.push_back(std::move(function));
  }
  for (ClassInfo& cls : outline.classes) {
    const int index = static_cast<int>(classes_.size());
    module.classes.emplace(cls.qualname, index);  // the first of two same-named classes
    classes_by_name_[cls.name].push_back(index);
    class_module_.push_back(module_index);
    classes_.push_back(std::move(cls));
  }
  for (ImportBinding& binding : ImportsOf(document, module.name, module.is_package)) {
    if (!binding.top_level) continue;
    if (binding.name == "*") {
      module.imports.stars.push_back(binding.module);
    } else {
      module.imports.named.insert_or_assign(binding.local_name, std::move(binding));
    }
  }

  module_by_name_.emplace(module.name, module_index);
  for (size_t dot = module.name.find('.'); dot != std::string::npos;
       dot = module.name.find('.', dot + 1)) {
    packages_.insert(module.name.substr(0, dot));
    module_by_suffix_[module.name.substr(dot + 1)].push_back(module_index);
  }
  modules_.push_back(std::move(module));
}

void RepoIndex::Finish() {
  // Best guess first: the last def Python binds under a qualname, then the others, newest first.
  for (Module& module : modules_) {
    for (auto& [qualname, indices] : module.functions) {
      std::reverse(indices.begin(), indices.end());
      std::stable_partition(indices.begin(), indices.end(),
                            [&](int index) { return !functions_[index].IsShadowed(); });
    }
  }
  class_bases_.assign(classes_.size(), {});
  for (size_t i = 0; i < classes_.size(); ++i) {
    const Module* module = &modules_[class_module_[i]];
    for (const std::string& written : classes_[i].bases) {
      // Generic[T] and Base[int] are the classes before the brackets.
      std::string_view base = Trim(std::string_view(written).substr(0, written.find('[')));
      Target target = ResolveDotted(module, base, 0);
      if (target.kind == Target::Kind::kClass && target.class_index == static_cast<int>(i)) {
        // `class Linear(Linear)`: the base is the imported name the new class then shadows.
        auto import = module->imports.named.find(base);
        target =
            import == module->imports.named.end() ? Target{} : ResolveImport(import->second, 1);
      }
      if (target.kind == Target::Kind::kClass && target.class_index != static_cast<int>(i)) {
        class_bases_[i].push_back(target.class_index);
      }
    }
  }
}

const RepoIndex::Module* RepoIndex::FindModule(std::string_view name) const {
  if (auto it = module_by_name_.find(name); it != module_by_name_.end()) {
    return &modules_[it->second];
  }
  if (auto it = module_by_suffix_.find(name);
      it != module_by_suffix_.end() && it->second.size() == 1) {
    return &modules_[it->second.front()];
  }
  return nullptr;
}

bool RepoIndex::IsModuleOrPackage(std::string_view name) const {
  return FindModule(name) != nullptr || packages_.contains(name);
}

int RepoIndex::FindClassIndex(const Module* module, std::string_view qualname) const {
  if (module == nullptr) return -1;
  auto it = module->classes.find(qualname);
  return it == module->classes.end() ? -1 : it->second;
}

RepoIndex::Target RepoIndex::ResolveName(const Module* module, std::string_view name,
                                         const Imports& imports, int depth) const {
  Target target;
  if (depth > kMaxDepth || name.empty()) return target;
  if (module != nullptr) {
    if (auto it = module->functions.find(name); it != module->functions.end()) {
      target.kind = Target::Kind::kFunctions;
      target.functions = it->second;
      return target;
    }
    if (int index = FindClassIndex(module, name); index >= 0) {
      target.kind = Target::Kind::kClass;
      target.class_index = index;
      return target;
    }
  }
  if (auto it = imports.named.find(name); it != imports.named.end()) {
    return ResolveImport(it->second, depth + 1);
  }
  if (module != nullptr && module->is_package) {
    const std::string submodule = Concat(module->name, ".", name);
    if (const Module* found = FindModule(submodule)) {
      target.kind = Target::Kind::kModule;
      target.module = found->name;
      return target;
    }
  }
  for (const std::string& star : imports.stars) {
    const Module* source = FindModule(star);
    if (source == nullptr || source == module) continue;
    Target found = ResolveName(source, name, source->imports, depth + 1);
    if (found.kind != Target::Kind::kNone && found.kind != Target::Kind::kExternal) return found;
  }
  return target;
}

RepoIndex::Target RepoIndex::ResolveImport(const ImportBinding& binding, int depth) const {
  Target target;
  if (depth > kMaxDepth) return target;
  target.kind = Target::Kind::kExternal;
  if (binding.module.empty()) return target;
  const Module* module = FindModule(binding.module);
  if (binding.name.empty()) {
    if (module != nullptr) {
      target.kind = Target::Kind::kModule;
      target.module = module->name;
    } else if (packages_.contains(binding.module)) {
      target.kind = Target::Kind::kModule;  // a namespace package (no __init__.py)
      target.module = binding.module;
    }
    return target;
  }
  if (module != nullptr) {
    Target found = ResolveName(module, binding.name, module->imports, depth + 1);
    if (found.kind != Target::Kind::kNone) return found;
  }
  const std::string submodule = Concat(binding.module, ".", binding.name);
  if (const Module* found = FindModule(submodule)) {
    target.kind = Target::Kind::kModule;
    target.module = found->name;
  } else if (packages_.contains(submodule)) {
    target.kind = Target::Kind::kModule;
    target.module = submodule;
  } else if (module != nullptr || packages_.contains(binding.module)) {
    // The module is in the repo but does not define the name where the index can see it.
    target.kind = Target::Kind::kNone;
  }
  return target;
}

RepoIndex::Target RepoIndex::ResolveAttribute(const Target& base, std::string_view name,
                                              int depth) const {
  Target target;
  if (depth > kMaxDepth) return target;
  switch (base.kind) {
    case Target::Kind::kModule: {
      if (const Module* module = FindModule(base.module)) {
        return ResolveName(module, name, module->imports, depth + 1);
      }
      const std::string submodule = Concat(base.module, ".", name);
      if (IsModuleOrPackage(submodule)) {
        target.kind = Target::Kind::kModule;
        target.module = submodule;
      }
      return target;
    }
    case Target::Kind::kClass: {
      std::vector<int> methods = FindMethodIndices(base.class_index, name, false);
      if (!methods.empty()) {
        target.kind = Target::Kind::kFunctions;
        target.functions = std::move(methods);
        return target;
      }
      const ClassInfo& cls = classes_[base.class_index];
      const int nested = FindClassIndex(&modules_[class_module_[base.class_index]],
                                        Concat(cls.qualname, ".", name));
      if (nested >= 0) {
        target.kind = Target::Kind::kClass;
        target.class_index = nested;
      }
      return target;
    }
    case Target::Kind::kExternal:
      return base;
    default:
      return target;
  }
}

RepoIndex::Target RepoIndex::ResolveDotted(const Module* module, std::string_view dotted,
                                           int depth) const {
  Target target;
  bool first = true;
  while (!dotted.empty()) {
    const size_t dot = dotted.find('.');
    const std::string_view part = Trim(dotted.substr(0, dot));
    dotted = dot == std::string_view::npos ? "" : dotted.substr(dot + 1);
    if (first) {
      target = module != nullptr ? ResolveName(module, part, module->imports, depth) : Target{};
      first = false;
    } else {
      target = ResolveAttribute(target, part, depth);
    }
    if (target.kind == Target::Kind::kNone) return target;
  }
  return target;
}

std::vector<int> RepoIndex::Linearize(int class_index) const {
  std::vector<int> order;
  std::vector<int> stack = {class_index};
  // Depth-first, left to right: Python's C3 order for the single and simple multiple
  // inheritance that real code uses.
  while (!stack.empty()) {
    const int current = stack.back();
    stack.pop_back();
    if (std::find(order.begin(), order.end(), current) != order.end()) continue;
    order.push_back(current);
    const std::vector<int>& bases = class_bases_[current];
    for (auto it = bases.rbegin(); it != bases.rend(); ++it) stack.push_back(*it);
  }
  return order;
}

std::vector<int> RepoIndex::FindMethodIndices(int class_index, std::string_view name,
                                              bool skip_self) const {
  for (int current : Linearize(class_index)) {
    if (skip_self && current == class_index) continue;
    const Module& module = modules_[class_module_[current]];
    auto it = module.functions.find(Concat(classes_[current].qualname, ".", name));
    if (it != module.functions.end()) return it->second;
  }
  return {};
}

std::vector<const FunctionInfo*> RepoIndex::Constructor(int class_index) const {
  return ToPointers(FindMethodIndices(class_index, "__init__", false));
}

std::vector<const FunctionInfo*> RepoIndex::Callees(const Target& target) const {
  switch (target.kind) {
    case Target::Kind::kFunctions:
      return ToPointers(target.functions);
    case Target::Kind::kClass:
      return Constructor(target.class_index);
    default:
      return {};
  }
}

std::vector<const FunctionInfo*> RepoIndex::ToPointers(const std::vector<int>& indices) const {
  std::vector<const FunctionInfo*> pointers;
  pointers.reserve(indices.size());
  for (int index : indices) pointers.push_back(&functions_[index]);
  return pointers;
}

std::vector<RepoIndex::Definer> RepoIndex::ModulesDefining(std::string_view name) const {
  std::vector<Definer> out;
  if (auto it = top_level_definers_.find(name); it != top_level_definers_.end()) {
    for (int index : it->second) out.push_back({modules_[index].name, modules_[index].file, false});
  }
  for (const Module& module : modules_) {
    if (!module.is_package) continue;
    if (FindModuleExact(Concat(module.name, ".", name)) != nullptr)
      out.push_back({module.name, module.file, true});
  }
  return out;
}

const RepoIndex::Module* RepoIndex::FindModuleExact(std::string_view name) const {
  auto it = module_by_name_.find(name);
  return it == module_by_name_.end() ? nullptr : &modules_[it->second];
}

std::optional<bool> RepoIndex::ModuleBinds(std::string_view module_name,
                                           std::string_view name) const {
  const Module* module = FindModule(module_name);
  if (module == nullptr) {
    // A namespace package binds its submodules only.
    if (packages_.contains(module_name) && IsModuleOrPackage(Concat(module_name, ".", name)))
      return true;
    return std::nullopt;
  }
  if (!module->imports.stars.empty() || module->has_getattr) return std::nullopt;
  if (module->functions.contains(name) || module->classes.contains(name) ||
      module->globals.contains(name) || module->imports.named.contains(name)) {
    return true;
  }
  return IsModuleOrPackage(Concat(module->name, ".", name));
}

bool RepoIndex::IsPackage(std::string_view name) const {
  const Module* module = FindModuleExact(name);
  return module != nullptr && module->is_package;
}

std::string RepoIndex::ImportableName(std::string_view module) const {
  // "src.pkg.mod" where src/pkg/__init__.py exists and src/ has none: "pkg.mod".
  size_t part_start = 0;
  for (size_t end = module.find('.'); end != std::string_view::npos;
       end = module.find('.', end + 1)) {
    if (IsPackage(module.substr(0, end))) return std::string(module.substr(part_start));
    part_start = end + 1;
  }
  return std::string(module);
}

std::optional<std::vector<std::string>> RepoIndex::ClassAttributes(const ClassInfo& cls) const {
  const int index = FindClassIndex(FindModule(cls.module), cls.qualname);
  if (index < 0) return std::nullopt;
  std::vector<std::string> out;
  for (int current : Linearize(index)) {
    const ClassInfo& info = classes_[current];
    if (info.dynamic_attributes) return std::nullopt;
    // Bases the index could not follow must be plain roots that lend no attributes of note.
    size_t plain = 0;
    for (const std::string& base : info.bases) {
      const std::string_view bare = Trim(std::string_view(base).substr(0, base.find('[')));
      plain += bare == "object" || bare == "ABC" || bare == "abc.ABC" || bare == "Generic" ||
               bare == "typing.Generic" || bare == "Protocol" || bare == "nn.Module" ||
               bare == "torch.nn.Module" || bare == "Module";
    }
    if (plain + class_bases_[current].size() < info.bases.size()) return std::nullopt;
    out.insert(out.end(), info.attributes.begin(), info.attributes.end());
  }
  return out;
}

std::vector<const FunctionInfo*> RepoIndex::FunctionsNamed(std::string_view name) const {
  auto it = functions_by_name_.find(name);
  return it == functions_by_name_.end() ? std::vector<const FunctionInfo*>{}
                                        : ToPointers(it->second);
}

const ClassInfo* RepoIndex::FindClass(std::string_view module, std::string_view name) const {
  const int index = FindClassIndex(FindModule(module), name);
  return index < 0 ? nullptr : &classes_[index];
}

std::vector<const FunctionInfo*> RepoIndex::FindMethod(const ClassInfo& cls,
                                                       std::string_view name) const {
  const int index = FindClassIndex(FindModule(cls.module), cls.qualname);
  if (index < 0) return {};
  return ToPointers(FindMethodIndices(index, name, false));
}

}  // namespace smallfix
