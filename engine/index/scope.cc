#include "engine/index/scope.h"

#include <algorithm>
#include <cstdint>

#include "engine/base/concat.h"
#include "engine/index/builtin_names.h"
#include "engine/index/imports.h"
#include "engine/index/string_map.h"
#include "engine/index/tree_walk.h"
#include "engine/source/signature_edits.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

using Kind = ScopeName::Kind;

constexpr size_t kForever = SIZE_MAX;

// A name some node binds, and the bytes where that binding is the one in effect.
struct Binding {
  std::string name;
  Kind kind = Kind::kLocal;
  int line = 0;
  size_t visible_from = 0;
  size_t visible_to = kForever;
};

// True when `byte` lies in the body of a def, lambda or class: after its header, so a comment
// before the first statement (which tree-sitter leaves outside the block) counts too.
bool InBody(TSNode node, size_t byte) {
  TSNode header = Field(node, "return_type");
  if (ts_node_is_null(header)) header = Field(node, "parameters");
  if (ts_node_is_null(header)) header = Field(node, "superclasses");
  if (ts_node_is_null(header)) header = Field(node, "name");
  const size_t start =
      ts_node_is_null(header) ? ts_node_start_byte(node) : ts_node_end_byte(header);
  return start <= byte && byte <= ts_node_end_byte(node);
}

bool IsComprehension(TSNode node) {
  return IsType(node, "list_comprehension") || IsType(node, "set_comprehension") ||
         IsType(node, "dictionary_comprehension") || IsType(node, "generator_expression");
}

// Calls `leaf` for each identifier or attribute a target binds: `a`, `a, (b, *c)`, `self.x`.
// Subscripts bind no name.
template <typename Leaf>
void ForEachTarget(TSNode target, Leaf&& leaf) {
  if (ts_node_is_null(target)) return;
  if (IsType(target, "identifier") || IsType(target, "attribute")) {
    leaf(target);
    return;
  }
  static constexpr std::string_view kContainers[] = {
      "pattern_list",      "tuple_pattern",  "list_pattern", "list_splat_pattern",
      "list_splat",        "tuple",          "list",         "parenthesized_expression",
      "as_pattern_target", "expression_list"};
  const std::string_view type = ts_node_type(target);
  if (std::find(std::begin(kContainers), std::end(kContainers), type) == std::end(kContainers)) {
    return;
  }
  ForEachNamedChild(target, [&](TSNode child) { ForEachTarget(child, leaf); });
}

// The target of `with x as t` or `except E as t`: the alias of an as_pattern.
TSNode AsTarget(TSNode node) {
  if (!IsType(node, "as_pattern")) return TSNode{};
  return Field(node, "alias");
}

// The names one scope's code binds: a def's body, a class body or the module. Does not
// enter nested defs, classes and lambdas (only their own names are bound here), nor
// comprehension targets (comprehensions have their own scope; a := inside one still binds here).
class BindingCollector {
 public:
  BindingCollector(const Document& document, bool module_level)
      : document_(document), module_level_(module_level) {}

  std::vector<Binding> Collect(TSNode scope_body) {
    Visit(scope_body);
    return std::move(bindings_);
  }

 private:
  void Add(TSNode identifier, Kind kind, size_t visible_from, size_t visible_to = kForever) {
    if (!IsType(identifier, "identifier")) return;
    if (module_level_ && kind != Kind::kImport) kind = Kind::kGlobal;
    bindings_.push_back(Binding{std::string(document_.NodeText(identifier)), kind,
                                document_.NodeStart(identifier).line + 1, visible_from,
                                visible_to});
  }

  void AddTargets(TSNode target, Kind kind, size_t visible_from, size_t visible_to = kForever) {
    ForEachTarget(target, [&](TSNode leaf) { Add(leaf, kind, visible_from, visible_to); });
  }

  void Visit(TSNode node) {
    ForEachNamedChild(node, [&](TSNode child) { VisitNode(child); });
  }

  void VisitNode(TSNode node) {
    // An annotated assignment without a value (`x: int`) has no "right" field.
    if (ts_node_is_null(node)) return;
    const std::string_view type = ts_node_type(node);
    if (type == "function_definition" || type == "class_definition") {
      // The name is usable in the def's own body (recursion) and after it.
      TSNode outer = ts_node_parent(node);
      const size_t start = ts_node_start_byte(IsType(outer, "decorated_definition") ? outer : node);
      Add(Field(node, "name"), Kind::kLocal, start);
      return;
    }
    if (type == "lambda") return;
    if (type == "assignment" || type == "augmented_assignment") {
      AddTargets(Field(node, "left"), Kind::kLocal, ts_node_end_byte(node));
      VisitNode(Field(node, "right"));  // chained assignments and :=
      return;
    }
    if (type == "for_statement") {
      AddTargets(Field(node, "left"), Kind::kLoopVariable, ts_node_end_byte(Field(node, "right")));
      Visit(node);
      return;
    }
    if (type == "with_item") {
      AddTargets(AsTarget(Field(node, "value")), Kind::kLocal, ts_node_end_byte(node));
      Visit(node);
      return;
    }
    if (type == "except_clause") {
      // `except E as e`: e exists only in the handler; Python deletes it afterwards.
      TSNode alias = Field(node, "alias");
      if (ts_node_is_null(alias)) alias = AsTarget(Field(node, "value"));
      if (!ts_node_is_null(alias)) {
        AddTargets(alias, Kind::kLocal, ts_node_end_byte(alias), ts_node_end_byte(node));
      }
      Visit(node);
      return;
    }
    if (type == "named_expression") {
      Add(Field(node, "name"), Kind::kLocal, ts_node_end_byte(node));
      VisitNode(Field(node, "value"));
      return;
    }
    if (type == "import_statement" || type == "import_from_statement") {
      for (const ImportBinding& binding : ImportBindings(document_, node, "", false)) {
        if (binding.local_name == "*") continue;
        bindings_.push_back(
            Binding{binding.local_name, Kind::kImport, binding.line, binding.end_byte, kForever});
      }
      return;
    }
    if (type == "identifier" || type == "string" || type == "integer" || type == "comment") return;
    Visit(node);
  }

  const Document& document_;
  const bool module_level_;
  std::vector<Binding> bindings_;
};

// Collects names nearest scope first; the first definition of a name added wins.
class NameList {
 public:
  void Add(std::string name, Kind kind, int line) {
    if (!seen_.insert(name).second) return;
    names_.push_back(ScopeName{std::move(name), kind, line});
  }

  // From one scope's bindings, those in effect at `byte` (the latest of each name); with
  // `anywhere`, also names bound only later (module-level names a def body can use).
  void AddScope(const std::vector<Binding>& bindings, size_t byte, bool anywhere) {
    StringMap<const Binding*> chosen;
    for (const Binding& binding : bindings) {
      const bool in_effect = binding.visible_from <= byte && byte <= binding.visible_to;
      const bool later = anywhere && binding.visible_to == kForever;
      if (!in_effect && !later) continue;
      auto [it, inserted] = chosen.emplace(binding.name, &binding);
      const Binding& current = *it->second;
      const bool current_in_effect = current.visible_from <= byte && byte <= current.visible_to;
      // Prefer a binding in effect, and among those the latest.
      if (!inserted && in_effect &&
          (!current_in_effect || binding.visible_from >= current.visible_from)) {
        it->second = &binding;
      }
    }
    std::vector<const Binding*> ordered;
    for (const auto& [name, binding] : chosen) ordered.push_back(binding);
    std::sort(ordered.begin(), ordered.end(), [](const Binding* a, const Binding* b) {
      // Ties (a def's parameters) keep their order in `bindings`.
      return a->visible_from != b->visible_from ? a->visible_from < b->visible_from : a < b;
    });
    for (const Binding* binding : ordered) Add(binding->name, binding->kind, binding->line);
  }

  std::vector<ScopeName> Take() { return std::move(names_); }

 private:
  StringSet seen_;
  std::vector<ScopeName> names_;
};

bool IsStaticMethod(const Document& document, TSNode function) {
  TSNode parent = ts_node_parent(function);
  if (!IsType(parent, "decorated_definition")) return false;
  bool found = false;
  ForEachNamedChild(parent, [&](TSNode decorator) {
    if (!IsType(decorator, "decorator")) return;
    const std::string_view text = Trim(document.NodeText(decorator));
    found |= text == "@staticmethod" || text.ends_with(".staticmethod");
  });
  return found;
}

// The name a method's instance (or class) goes by: its first parameter; "" if static.
std::string FirstParameter(const Document& document, TSNode function) {
  if (IsStaticMethod(document, function)) return "";
  const std::vector<Parameter> params = Parameters(document, function);
  if (params.empty() || params.front().kind == Parameter::Kind::kVarPositional) return "";
  return params.front().name;
}

// `self.x = ...`, `self.x += ...`, `for self.i in ...`, `with ... as self.f`: x, i, f.
void CollectSelfAttributes(const Document& document, TSNode node, std::string_view self,
                           std::vector<Binding>& out) {
  auto add = [&](TSNode target) {
    ForEachTarget(target, [&](TSNode leaf) {
      if (!IsType(leaf, "attribute")) return;
      TSNode object = Field(leaf, "object");
      if (!IsType(object, "identifier") || document.NodeText(object) != self) return;
      TSNode attribute = Field(leaf, "attribute");
      out.push_back(Binding{std::string(document.NodeText(attribute)), Kind::kAttribute,
                            document.NodeStart(leaf).line + 1, ts_node_start_byte(leaf), kForever});
    });
  };
  ForEachNamedChild(node, [&](TSNode child) {
    if (IsType(child, "assignment") || IsType(child, "augmented_assignment") ||
        IsType(child, "for_statement")) {
      add(Field(child, "left"));
    } else if (IsType(child, "with_item")) {
      add(AsTarget(Field(child, "value")));
    }
    CollectSelfAttributes(document, child, self, out);
  });
}

// What `self.` reaches in `cls`: attributes its methods assign on their first parameter,
// and the names its body binds (class attributes), as "<self>.<name>", first seen first.
void AddClassAttributes(const Document& document, TSNode cls, std::string_view self,
                        NameList& names) {
  std::vector<Binding> attributes;
  TSNode body = Field(cls, "body");
  for (const Binding& binding : BindingCollector(document, false).Collect(body)) {
    if (binding.kind == Kind::kImport) continue;
    attributes.push_back(binding);
  }
  ForEachNamedChild(body, [&](TSNode statement) {
    TSNode function =
        IsType(statement, "decorated_definition") ? Field(statement, "definition") : statement;
    if (!IsType(function, "function_definition")) return;
    const std::string method_self = FirstParameter(document, function);
    if (!method_self.empty()) {
      CollectSelfAttributes(document, Field(function, "body"), method_self, attributes);
    }
  });
  std::stable_sort(attributes.begin(), attributes.end(), [](const Binding& a, const Binding& b) {
    return a.visible_from < b.visible_from;
  });
  for (const Binding& binding : attributes) {
    names.Add(Concat(self, ".", binding.name), Kind::kAttribute, binding.line);
  }
}

// A def's scope: its parameters (bound from the start) and what its body binds, so that
// `x = x + 1` rebinding a parameter makes the later binding the nearest one.
std::vector<Binding> FunctionBindings(const Document& document, TSNode function) {
  std::vector<Binding> bindings;
  const size_t start = ts_node_start_byte(function);
  for (const Parameter& parameter : Parameters(document, function)) {
    if (parameter.name.empty()) continue;
    bindings.push_back(Binding{parameter.name, Kind::kParameter,
                               document.NodeStart(parameter.node).line + 1, start, kForever});
  }
  for (Binding& binding : BindingCollector(document, false).Collect(Field(function, "body"))) {
    bindings.push_back(std::move(binding));
  }
  return bindings;
}

void AddLambdaParameters(const Document& document, TSNode lambda, NameList& names) {
  ForEachNamedChild(Field(lambda, "parameters"), [&](TSNode parameter) {
    TSNode name = parameter;
    if (IsType(parameter, "default_parameter")) name = Field(parameter, "name");
    if (IsType(parameter, "list_splat_pattern") || IsType(parameter, "dictionary_splat_pattern")) {
      name = ts_node_named_child(parameter, 0);
    }
    if (IsType(name, "identifier")) {
      names.Add(std::string(document.NodeText(name)), Kind::kParameter,
                document.NodeStart(name).line + 1);
    }
  });
}

void AddComprehensionTargets(const Document& document, TSNode comprehension, NameList& names) {
  ForEachNamedChild(comprehension, [&](TSNode clause) {
    if (!IsType(clause, "for_in_clause")) return;
    ForEachTarget(Field(clause, "left"), [&](TSNode leaf) {
      if (!IsType(leaf, "identifier")) return;
      names.Add(std::string(document.NodeText(leaf)), Kind::kLoopVariable,
                document.NodeStart(leaf).line + 1);
    });
  });
}

}  // namespace

std::vector<ScopeName> NamesInScope(const Document& document, size_t byte) {
  NameList names;
  const uint32_t offset = static_cast<uint32_t>(std::min(byte, document.text().size()));
  TSNode node = ts_node_descendant_for_byte_range(document.root(), offset, offset);
  bool past_def = false;  // a class body's names are not visible inside its methods
  TSNode method{};
  for (; !ts_node_is_null(node); node = ts_node_parent(node)) {
    if (IsComprehension(node)) {
      AddComprehensionTargets(document, node, names);
    } else if (IsType(node, "lambda") && InBody(node, byte)) {
      AddLambdaParameters(document, node, names);
      past_def = true;
    } else if (IsType(node, "function_definition") && InBody(node, byte)) {
      names.AddScope(FunctionBindings(document, node), byte, false);
      if (ts_node_is_null(method) && !ts_node_is_null(ClassOfMethod(node))) method = node;
      past_def = true;
    } else if (IsType(node, "class_definition") && !past_def && InBody(node, byte)) {
      names.AddScope(BindingCollector(document, false).Collect(Field(node, "body")), byte, false);
    }
  }
  if (!ts_node_is_null(method)) {
    const std::string self = FirstParameter(document, method);
    if (!self.empty()) AddClassAttributes(document, ClassOfMethod(method), self, names);
  }
  names.AddScope(BindingCollector(document, true).Collect(document.root()), byte, true);
  for (std::string_view builtin : BuiltinNames())
    names.Add(std::string(builtin), Kind::kBuiltin, 0);
  return names.Take();
}

std::vector<std::string> ClassAttributeNames(const Document& document, TSNode cls) {
  NameList names;
  // The receiver's name does not matter here: every method's own first parameter is used.
  AddClassAttributes(document, cls, "", names);
  std::vector<std::string> out;
  for (ScopeName& name : names.Take()) out.push_back(name.name.substr(1));  // ".x" -> "x"
  return out;
}

bool IsNameInScope(const Document& document, size_t byte, std::string_view name) {
  for (const ScopeName& scope_name : NamesInScope(document, byte)) {
    if (scope_name.name == name) return true;
  }
  return false;
}

}  // namespace smallfix
