#include "engine/index/outline.h"

#include <functional>

#include "engine/base/concat.h"
#include "engine/index/scope.h"
#include "engine/index/tree_walk.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// Where a definition sits: the qualname prefix of what it holds, and the class if its
// body is a class body.
struct Scope {
  std::string prefix;    // "", "Outer." or "f.<locals>."
  int class_index = -1;  // into ModuleOutline::classes
};

std::vector<std::string> Decorators(const Document& document, TSNode definition) {
  std::vector<std::string> decorators;
  TSNode parent = ts_node_parent(definition);
  if (!IsType(parent, "decorated_definition")) return decorators;
  ForEachNamedChild(parent, [&](TSNode child) {
    if (!IsType(child, "decorator") || ts_node_named_child_count(child) == 0) return;
    decorators.emplace_back(document.NodeText(ts_node_named_child(child, 0)));
  });
  return decorators;
}

// "staticmethod" and "builtins.staticmethod" are both staticmethod.
bool IsDecorator(const std::string& decorator, std::string_view name) {
  return decorator == name || std::string_view(decorator).ends_with(Concat(".", name));
}

bool IsPropertyDecorator(const std::string& decorator) {
  return IsDecorator(decorator, "property") || IsDecorator(decorator, "cached_property") ||
         decorator.ends_with(".setter") || decorator.ends_with(".getter") ||
         decorator.ends_with(".deleter");
}

bool IsAsync(TSNode function) {
  return ts_node_child_count(function) > 0 && IsType(ts_node_child(function, 0), "async");
}

std::vector<ParamInfo> Params(const Document& document, TSNode function) {
  std::vector<ParamInfo> params;
  for (const Parameter& parameter : Parameters(document, function)) {
    if (parameter.name.empty()) continue;  // a bare `*` or `/`
    ParamInfo info;
    info.name = parameter.name;
    info.kind = parameter.kind;
    info.has_default = parameter.has_default;
    if (parameter.has_default) {
      info.default_text = std::string(document.NodeText(Field(parameter.node, "value")));
    }
    params.push_back(std::move(info));
  }
  return params;
}

class Outliner {
 public:
  Outliner(const Document& document, const std::string& module, const std::string& file)
      : document_(document), module_(module), file_(file) {}

  ModuleOutline Run() {
    Visit(document_.root(), Scope{});
    CollectAssignedAttributes();
    return std::move(outline_);
  }

 private:
  void Visit(TSNode node, const Scope& scope) {
    const bool module_level = scope.prefix.empty();
    ForEachNamedChild(node, [&](TSNode child) {
      if (IsType(child, "function_definition")) {
        if (module_level && document_.NodeText(Field(child, "name")) == "__getattr__") {
          outline_.has_module_getattr = true;
        }
        AddFunction(child, scope);
      } else if (IsType(child, "class_definition")) {
        AddClass(child, scope);
      } else if (MayHoldStatements(child)) {
        Visit(child, scope);
      } else if (module_level && IsType(child, "expression_statement")) {
        ForEachNamedChild(child, [&](TSNode expression) {
          for (TSNode assignment = expression; IsType(assignment, "assignment");
               assignment = Field(assignment, "right")) {
            AddGlobals(Field(assignment, "left"));
          }
        });
      }
    });
  }

  // `A = B = 1`, `a, b = ...`: the names a module-level assignment binds.
  void AddGlobals(TSNode target) {
    if (ts_node_is_null(target)) return;
    if (IsType(target, "identifier")) {
      outline_.globals.emplace_back(document_.NodeText(target));
    } else if (IsType(target, "pattern_list") || IsType(target, "tuple_pattern") ||
               IsType(target, "list_pattern") || IsType(target, "list_splat_pattern")) {
      ForEachNamedChild(target, [&](TSNode child) { AddGlobals(child); });
    }
  }

  // `obj.name = ...` (also augmented, for and with targets) and setattr(obj, "name", ...)
  // anywhere in the module.
  void CollectAssignedAttributes() {
    std::function<void(TSNode)> add_target = [&](TSNode target) {
      if (ts_node_is_null(target)) return;
      if (IsType(target, "attribute")) {
        outline_.assigned_attributes.emplace_back(document_.NodeText(Field(target, "attribute")));
        return;
      }
      if (IsType(target, "subscript") || IsType(target, "identifier")) return;
      ForEachNamedChild(target, add_target);
    };
    WalkTree(document_.root(), [&](TSNode node) {
      if (IsType(node, "assignment") || IsType(node, "augmented_assignment") ||
          IsType(node, "for_statement")) {
        add_target(Field(node, "left"));
      } else if (IsType(node, "as_pattern")) {
        add_target(Field(node, "alias"));
      } else if (IsType(node, "call") && document_.NodeText(Field(node, "function")) == "setattr") {
        TSNode arguments = Field(node, "arguments");
        TSNode name =
            ts_node_named_child_count(arguments) > 1 ? ts_node_named_child(arguments, 1) : TSNode{};
        if (!ts_node_is_null(name) && IsType(name, "string")) {
          std::string_view text = document_.NodeText(name);
          if (text.size() >= 2)
            outline_.assigned_attributes.emplace_back(text.substr(1, text.size() - 2));
        }
      }
      return Walk::kDescend;
    });
  }

  void AddFunction(TSNode node, const Scope& scope) {
    FunctionInfo info;
    info.name = std::string(document_.NodeText(Field(node, "name")));
    info.qualname = Concat(scope.prefix, info.name);
    info.module = module_;
    info.file = file_;
    info.line = document_.NodeStart(node).line + 1;
    info.params = Params(document_, node);
    info.decorators = Decorators(document_, node);
    info.is_async = IsAsync(node);
    if (scope.class_index >= 0) {
      const ClassInfo& enclosing = outline_.classes[scope.class_index];
      info.is_method = true;
      info.class_name = enclosing.name;
      info.class_qualname = enclosing.qualname;
      for (const std::string& decorator : info.decorators) {
        info.is_staticmethod |= IsDecorator(decorator, "staticmethod");
        info.is_classmethod |= IsDecorator(decorator, "classmethod");
        info.is_property |= IsPropertyDecorator(decorator);
      }
      // Python makes these two classmethods implicitly.
      info.is_classmethod |= info.name == "__init_subclass__" || info.name == "__class_getitem__";
      info.is_staticmethod |= info.name == "__new__";
    }
    Scope inner{Concat(info.qualname, ".<locals>."), -1};
    outline_.functions.push_back(std::move(info));
    Visit(Field(node, "body"), inner);
  }

  void AddClass(TSNode node, const Scope& scope) {
    ClassInfo info;
    info.name = std::string(document_.NodeText(Field(node, "name")));
    info.qualname = Concat(scope.prefix, info.name);
    info.module = module_;
    info.file = file_;
    info.line = document_.NodeStart(node).line + 1;
    info.decorators = Decorators(document_, node);
    ForEachNamedChild(Field(node, "superclasses"), [&](TSNode base) {
      // metaclass=..., *bases and **kwargs are not bases we can follow.
      if (IsType(base, "keyword_argument") || IsType(base, "list_splat") ||
          IsType(base, "dictionary_splat") || IsComment(base)) {
        return;
      }
      info.bases.emplace_back(document_.NodeText(base));
    });
    info.attributes = ClassAttributeNames(document_, node);
    info.dynamic_attributes = SetsAttributesDynamically(document_.NodeText(node));
    for (const std::string& name : info.attributes) {
      info.dynamic_attributes |=
          name == "__getattr__" || name == "__getattribute__" || name == "__slots__";
    }
    Scope inner{Concat(info.qualname, "."), static_cast<int>(outline_.classes.size())};
    outline_.classes.push_back(std::move(info));
    Visit(Field(node, "body"), inner);
  }

  const Document& document_;
  const std::string& module_;
  const std::string& file_;
  ModuleOutline outline_;
};

}  // namespace

ModuleOutline OutlineModule(const Document& document, const std::string& module,
                            const std::string& file) {
  return Outliner(document, module, file).Run();
}

bool SetsAttributesDynamically(std::string_view class_text) {
  for (std::string_view marker : {"setattr(", "__dict__", "register_parameter(", "register_buffer(",
                                  "add_module(", "register_module("}) {
    if (class_text.find(marker) != std::string_view::npos) return true;
  }
  return false;
}

std::string QualnameOf(const Document& document, TSNode definition) {
  std::string qualname(document.NodeText(Field(definition, "name")));
  TSNode child = definition;
  for (TSNode node = ts_node_parent(definition); !ts_node_is_null(node);
       child = node, node = ts_node_parent(node)) {
    // Only a def's or class's body makes a scope; a default value or decorator does not.
    if (!IsType(child, "block") || !ts_node_eq(Field(node, "body"), child)) continue;
    // A for, while, with or try body is a block too, with no name: only defs and classes count.
    if (!IsType(node, "function_definition") && !IsType(node, "class_definition")) continue;
    const std::string_view name = document.NodeText(Field(node, "name"));
    if (IsType(node, "function_definition")) {
      qualname = Concat(name, ".<locals>.", qualname);
    } else if (IsType(node, "class_definition")) {
      qualname = Concat(name, ".", qualname);
    }
  }
  return qualname;
}

}  // namespace smallfix
