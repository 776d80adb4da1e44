// Look-ups about names the code uses that nothing defines: a name no statement of the module
// binds, an import of a name its module does not define, an attribute of self no method
// assigns. These are static inconsistencies, so the code really is wrong where they hold.
#include <algorithm>
#include <set>

#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/index/known_imports.h"
#include "engine/index/module_facts.h"
#include "engine/index/module_name.h"
#include "engine/index/outline.h"
#include "engine/index/repo_index.h"
#include "engine/index/scope.h"
#include "engine/index/tree_walk.h"
#include "engine/index/undefined_names.h"
#include "engine/patterns/lookups/helpers.h"
#include "engine/source/signature_edits.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

constexpr size_t kMaxAnswers = 3;

bool IsTestPath(std::string_view path) {
  std::vector<std::string_view> parts;
  for (size_t start = 0; start <= path.size();) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    parts.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  const std::string_view file = parts.back();
  if (file == "conftest.py" || file.starts_with("test_") || file.ends_with("_test.py")) return true;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    if (parts[i] == "tests" || parts[i] == "test" || parts[i] == "testing") return true;
  }
  return false;
}

std::string_view TopOf(std::string_view module) { return module.substr(0, module.find('.')); }

bool IsTopLevelImport(TSNode node) {
  return IsType(ts_node_parent(node), "module") &&
         (IsType(node, "import_statement") || IsType(node, "import_from_statement") ||
          IsType(node, "future_import_statement"));
}

// The site is in the module's import block: a top-level import, or the top-level statement
// right after one (a fix that only adds an import has its fault line after the insertion).
bool InImportBlock(TSNode statement) {
  if (!IsType(ts_node_parent(statement), "module")) return false;
  if (IsTopLevelImport(statement)) return true;
  TSNode previous = ts_node_prev_named_sibling(statement);
  while (!ts_node_is_null(previous) && IsComment(previous))
    previous = ts_node_prev_named_sibling(previous);
  return !ts_node_is_null(previous) && IsTopLevelImport(previous);
}

// True when the file writes its own package's imports relatively (`from .utils import x`).
bool UsesRelativeImports(const Document& document) {
  bool relative = false;
  ForEachNamedChild(document.root(), [&](TSNode child) {
    if (IsType(child, "import_from_statement")) {
      relative |= IsType(Field(child, "module_name"), "relative_import");
    }
  });
  return relative;
}

// `target` as the file `module` (a package when `is_package`) imports it relatively:
// "pkg.a.c" from "pkg.a.b" -> ".c", "pkg.d" -> "..d", "pkg.a" -> ".".
std::string RelativeName(std::string_view module, bool is_package, std::string_view target) {
  auto split = [](std::string_view dotted) {
    std::vector<std::string_view> parts;
    for (size_t start = 0; start <= dotted.size();) {
      size_t end = dotted.find('.', start);
      if (end == std::string_view::npos) end = dotted.size();
      parts.push_back(dotted.substr(start, end - start));
      start = end + 1;
    }
    return parts;
  };
  std::vector<std::string_view> package = split(module);
  if (!is_package) package.pop_back();
  const std::vector<std::string_view> parts = split(target);
  size_t common = 0;
  while (common < package.size() && common < parts.size() && package[common] == parts[common])
    ++common;
  std::string out(package.size() - common + 1, '.');
  for (size_t i = common; i < parts.size(); ++i) out += Concat(i > common ? "." : "", parts[i]);
  return out;
}

// How the file should name repo module `target` in a from-import: relative when the file
// already imports its own package that way, else its importable absolute name.
std::string ModuleReference(const RepoIndex& index, const Document& document,
                            const std::string& target) {
  const std::string self = index.ModuleNameOf(document.path());
  if (UsesRelativeImports(document) && TopOf(self) == TopOf(target)) {
    return RelativeName(self, IsPackageInit(document.path()), target);
  }
  return index.ImportableName(target);
}

// The one repo module a name can be imported from: the modules that define it at their top
// level (or hold it as a submodule), outside tests and not the file itself; those of the
// file's own top-level package first. nullopt unless exactly one.
std::optional<RepoIndex::Definer> UniqueDefiner(const RepoIndex& index, const Document& document,
                                                std::string_view name) {
  const std::string self = index.ModuleNameOf(document.path());
  std::vector<RepoIndex::Definer> all, own;
  for (RepoIndex::Definer& definer : index.ModulesDefining(name)) {
    if (IsTestPath(definer.file) || definer.module == self) continue;
    if (TopOf(definer.module) == TopOf(self)) own.push_back(definer);
    all.push_back(std::move(definer));
  }
  if (own.size() == 1) return own.front();
  if (own.empty() && all.size() == 1) return all.front();
  return std::nullopt;
}

// The import statements (one per line) that would bind `undefined`, best first.
std::vector<std::string> ImportsFor(const UndefinedName& undefined, const Document& document,
                                    const RepoIndex* index) {
  const std::string& name = undefined.name;
  std::vector<std::string> out;
  if (IsStdlibModule(name) && !undefined.attributes.empty()) {
    // `importlib.util.find_spec(...)`: the package and the submodules it reads, which
    // `import importlib` alone does not load; then the package alone.
    std::string with_submodules = Concat("import ", name);
    bool any = false;
    const std::vector<std::string_view> unloaded = UnloadedSubmodules(name);
    std::vector<std::string> used(undefined.attributes.begin(), undefined.attributes.end());
    std::sort(used.begin(), used.end());
    for (const std::string& attribute : used) {
      if (std::find(unloaded.begin(), unloaded.end(), attribute) == unloaded.end()) continue;
      with_submodules += Concat("\nimport ", name, ".", attribute);
      any = true;
    }
    if (any) out.push_back(with_submodules);
    out.push_back(Concat("import ", name));
    return out;
  }
  if (const std::string_view module = StdlibModuleOf(name); !module.empty()) {
    out.push_back(Concat("from ", module, " import ", name));
    return out;
  }
  if (index != nullptr) {
    if (std::optional<RepoIndex::Definer> definer = UniqueDefiner(*index, document, name)) {
      out.push_back(
          Concat("from ", ModuleReference(*index, document, definer->module), " import ", name));
      return out;
    }
    if (!index->ModulesDefining(name).empty()) return out;  // the repo has it, but not once
  }
  if (const std::string_view conventional = ConventionalImport(name); !conventional.empty()) {
    out.emplace_back(conventional);
  }
  return out;
}

// The byte range of the site's own code: a simple statement whole, a compound one its header.
std::pair<size_t, size_t> SiteRange(const Document& document, TSNode statement) {
  const size_t start = ts_node_start_byte(statement);
  TSNode body = Field(statement, "body");
  if (IsType(statement, "decorated_definition"))
    body = Field(Field(statement, "definition"), "body");
  if (!ts_node_is_null(body) || IsType(statement, "if_statement") ||
      IsType(statement, "try_statement") || IsType(statement, "with_statement") ||
      IsType(statement, "for_statement") || IsType(statement, "while_statement")) {
    const int line = static_cast<int>(document.NodeStart(statement).line);
    return {start, document.lines().LineEnd(line)};
  }
  return {start, ts_node_end_byte(statement)};
}

// The module's undefined names, from the generation's memo when there is one.
std::optional<std::vector<UndefinedName>> UndefinedNamesOf(const MatchContext& context,
                                                           const Document& document) {
  return context.facts != nullptr ? context.facts->UndefinedNamesOf(document)
                                  : UndefinedNames(document);
}

}  // namespace

absl::Status UndefinedNameLookup(const LookupArgs& args, const MatchContext& context,
                                 MatchState& state, std::vector<MatchState>&) {
  SMALLFIX_ASSIGN_OR_RETURN(TSNode node, CaptureNode(args, "capture", state));
  const size_t at = ts_node_start_byte(node);
  // Most names at a site are builtins, parameters or locals: say no before walking the whole
  // module (the scopes around the site are far smaller).
  const std::string_view name = state.document->NodeText(node);
  if (IsImplicitName(name) || IsNameInScope(*state.document, at, name)) {
    return LookupFails(Concat("`", name, "` is bound where it is read"));
  }
  std::optional<std::vector<UndefinedName>> undefined = UndefinedNamesOf(context, *state.document);
  if (!undefined)
    return LookupFails("the module may bind names out of sight (star import, globals(), exec)");
  for (const UndefinedName& entry : *undefined) {
    if (std::find(entry.reads.begin(), entry.reads.end(), at) != entry.reads.end())
      return absl::OkStatus();
  }
  return LookupFails(
      Concat("@", LookupArg(args, "capture"), " is not a read of a name the module never binds"));
}

absl::Status MissingImport(const LookupArgs& args, const MatchContext& context, MatchState& state,
                           std::vector<MatchState>& more) {
  const Document& document = *state.document;
  const std::string at = LookupArg(args, "at");
  if (at == "imports" && !InImportBlock(state.statement))
    return LookupFails("the site is not in the import block");
  std::optional<std::vector<UndefinedName>> undefined = UndefinedNamesOf(context, document);
  if (!undefined)
    return LookupFails("the module may bind names out of sight (star import, globals(), exec)");
  // Plain variables, not a structured binding: clang 14 (the fuzz build) cannot capture one.
  const auto range = SiteRange(document, state.statement);
  const size_t start = range.first, end = range.second;
  std::vector<std::pair<std::string, std::string>> answers;  // name, import
  for (const UndefinedName& entry : *undefined) {
    if (at != "imports") {
      const bool read_here = std::any_of(entry.reads.begin(), entry.reads.end(),
                                         [&](size_t byte) { return start <= byte && byte < end; });
      if (!read_here) continue;
    }
    for (std::string& code : ImportsFor(entry, document, context.index))
      answers.emplace_back(entry.name, std::move(code));
  }
  return BindEachPair({"name", "import"}, answers, state, more,
                      "no undefined name here that a known module or the repo defines");
}

namespace {

// The module a from-import names, as an absolute module name of the repo; fails when a
// relative import climbs out of the repo or an absolute one names no module of the repo.
absl::StatusOr<std::string> ImportedModule(const RepoIndex& index, const Document& document,
                                           TSNode statement) {
  const TSNode module_node = Field(statement, "module_name");
  const std::string written(document.NodeText(module_node));
  if (!IsType(module_node, "relative_import")) {
    if (!index.HasModule(TopOf(written)))
      return LookupFails(Concat("`", written, "` is not a module of the repo"));
    return written;
  }
  const size_t dots = written.find_first_not_of('.');
  const int level = static_cast<int>(dots == std::string::npos ? written.size() : dots);
  std::optional<std::string> absolute =
      ResolveRelativeModule(index.ModuleNameOf(document.path()), IsPackageInit(document.path()),
                            level, dots == std::string::npos ? "" : written.substr(dots));
  if (!absolute) return LookupFails("the relative import climbs out of the repo");
  return *absolute;
}

// Binds `kept`, the from-import without the `missing` names (each with the comma after it,
// the last with the comma before it), and `import`, their import from `new_module`.
void BindKeptAndMoved(const Document& document, TSNode statement, const std::vector<TSNode>& nodes,
                      const std::vector<std::string>& names,
                      const std::vector<std::string>& missing, const std::string& new_module,
                      MatchState& state) {
  const size_t base = ts_node_start_byte(statement);
  const std::string_view text = document.NodeText(statement);
  std::vector<bool> cut(text.size(), false);
  std::string moved;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (std::find(missing.begin(), missing.end(), names[i]) == missing.end()) continue;
    size_t cut_start = ts_node_start_byte(nodes[i]), cut_end = ts_node_end_byte(nodes[i]);
    if (i + 1 < nodes.size()) {
      cut_end = ts_node_start_byte(nodes[i + 1]);
    } else if (i > 0) {
      cut_start = ts_node_end_byte(nodes[i - 1]);
    }
    for (size_t byte = cut_start; byte < cut_end; ++byte) cut[byte - base] = true;
    moved += Concat(moved.empty() ? "" : ", ", document.NodeText(nodes[i]));
  }
  std::string kept;
  for (size_t i = 0; i < text.size(); ++i) {
    if (!cut[i]) kept += text[i];
  }
  state.bindings["kept"] = kept;
  state.bindings["import"] = Concat("from ", new_module, " import ", moved);
}

}  // namespace

absl::Status MovedImport(const LookupArgs& args, const MatchContext& context, MatchState& state,
                         std::vector<MatchState>&) {
  if (context.index == nullptr) return LookupFails("no repo index");
  const RepoIndex& index = *context.index;
  const Document& document = *state.document;
  const TSNode statement = state.statement;
  const bool some = LookupArg(args, "names") == "some";
  if (!IsType(statement, "import_from_statement"))
    return LookupFails("the site is not a from-import");
  const bool relative = IsType(Field(statement, "module_name"), "relative_import");
  const std::string self = index.ModuleNameOf(document.path());
  SMALLFIX_ASSIGN_OR_RETURN(std::string imported, ImportedModule(index, document, statement));
  const std::string& module = imported;
  // The names the statement imports, and which of them the module it names lacks.
  std::vector<TSNode> nodes;
  std::vector<std::string> names, missing;
  const uint32_t count = ts_node_child_count(statement);
  for (uint32_t i = 0; i < count; ++i) {
    const char* field = ts_node_field_name_for_child(statement, i);
    if (field == nullptr || std::string_view(field) != "name") continue;
    TSNode name = ts_node_child(statement, i);
    nodes.push_back(name);
    if (IsType(name, "aliased_import")) name = Field(name, "name");
    names.emplace_back(document.NodeText(name));
  }
  if (names.empty()) return LookupFails("a star import");
  for (const std::string& name : names) {
    std::optional<bool> binds = index.ModuleBinds(module, name);
    if (index.HasModule(module) && !binds)
      return LookupFails(Concat("cannot tell what `", module, "` binds"));
    if (!binds.value_or(false)) missing.push_back(name);
  }
  if (missing.empty())
    return LookupFails(Concat("`", module, "` defines every name imported from it"));
  if (some == (missing.size() == names.size())) {
    return LookupFails(some ? "the module lacks every name (the module path is what moved)"
                            : "the module still defines some of the names");
  }
  std::optional<RepoIndex::Definer> definer = UniqueDefiner(index, document, missing.front());
  if (!definer || definer->module == module)
    return LookupFails(Concat("no one other module defines `", missing.front(), "`"));
  for (const std::string& name : missing) {
    if (!index.ModuleBinds(definer->module, name).value_or(false)) {
      return LookupFails(Concat("`", definer->module, "` does not define `", name, "` too"));
    }
  }
  const std::string new_module =
      relative ? RelativeName(self, IsPackageInit(document.path()), definer->module)
               : index.ImportableName(definer->module);
  state.bindings["new_module"] = new_module;
  if (some) BindKeptAndMoved(document, statement, nodes, names, missing, new_module, state);
  return absl::OkStatus();
}

absl::Status UnassignedAttribute(const LookupArgs& args, const MatchContext& context,
                                 MatchState& state, std::vector<MatchState>& more) {
  const std::string name = LookupArg(args, "name");
  const size_t dot = name.find('.');
  if (dot == std::string::npos || name.find('.', dot + 1) != std::string::npos) {
    return LookupFails(Concat("`", name, "` is not an attribute of a plain name"));
  }
  const std::string receiver = name.substr(0, dot), attribute = name.substr(dot + 1);
  const Document& document = *state.document;
  std::optional<TSNode> def = EnclosingOfType(state.statement, {"function_definition"});
  const TSNode cls = def ? ClassOfMethod(*def) : TSNode{};
  if (ts_node_is_null(cls)) return LookupFails("the site is not in a method");
  const std::vector<Parameter> params = Parameters(document, *def);
  if (params.empty() || params.front().name != receiver)
    return LookupFails(Concat("`", receiver, "` is not the method's self"));
  if (SetsAttributesDynamically(document.NodeText(cls))) {
    return LookupFails("the class sets attributes by name (setattr, register_parameter, ...)");
  }
  // What the class reaches: its own names and assignments, and through the index its bases'.
  std::vector<std::string> known = ClassAttributeNames(document, cls);
  const bool has_bases = !ts_node_is_null(Field(cls, "superclasses")) &&
                         ts_node_named_child_count(Field(cls, "superclasses")) > 0;
  if (has_bases) {
    if (context.index == nullptr) return LookupFails("no repo index to follow the class's bases");
    const ClassInfo* info = context.index->FindClass(context.index->ModuleNameOf(document.path()),
                                                     QualnameOf(document, cls));
    if (info == nullptr) return LookupFails("the class is not in the index");
    std::optional<std::vector<std::string>> inherited = context.index->ClassAttributes(*info);
    if (!inherited) return LookupFails("a base of the class is outside the repo or dynamic");
    known.insert(known.end(), inherited->begin(), inherited->end());
  }
  for (const std::string& known_name : known) {
    if (known_name == attribute || known_name == "__getattr__" ||
        known_name == "__getattribute__" || known_name == "__slots__") {
      return LookupFails(Concat("the class defines `", known_name, "`"));
    }
  }
  // Set from outside (a mixin's host, a test), or probed by name: not a slip.
  if (context.index != nullptr && context.index->AssignsAttribute(attribute)) {
    return LookupFails(Concat("some module assigns `.", attribute, "`"));
  }
  const std::string_view class_text = document.NodeText(cls);
  if (class_text.find(Concat("\"", attribute, "\"")) != std::string_view::npos ||
      class_text.find(Concat("'", attribute, "'")) != std::string_view::npos) {
    return LookupFails(Concat("the class names `", attribute, "` in a string (hasattr, setattr)"));
  }
  if (attribute == "training") return LookupFails("nn.Module's own attribute");
  std::vector<std::pair<size_t, std::string>> scored;
  std::set<std::string, std::less<>> seen;
  for (const std::string& candidate : known) {
    if (!seen.insert(candidate).second || candidate.starts_with("__")) continue;
    if (std::optional<size_t> closeness = NameCloseness(attribute, candidate))
      scored.emplace_back(*closeness, candidate);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> nearest;
  for (size_t i = 0; i < scored.size() && i < kMaxAnswers; ++i)
    nearest.push_back(Concat(receiver, ".", scored[i].second));
  return BindEach("nearest", nearest, state, more,
                  Concat("no attribute the class assigns is near `", attribute, "`"));
}

}  // namespace smallfix
