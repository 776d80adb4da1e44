#include "engine/index/imports.h"

#include "engine/index/module_name.h"
#include "engine/index/tree_walk.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// "a . b" written with spaces or comments still names "a.b".
std::string DottedName(const Document& document, TSNode dotted) {
  std::string name;
  ForEachNamedChild(dotted, [&](TSNode part) {
    if (!IsType(part, "identifier")) return;
    if (!name.empty()) name += '.';
    name += document.NodeText(part);
  });
  return name;
}

struct Scope {
  size_t start = 0, end = 0;
  bool top_level = true;
};

void Collect(const Document& document, TSNode node, std::string_view module, bool is_package,
             Scope scope, std::vector<ImportBinding>& out) {
  ForEachNamedChild(node, [&](TSNode child) {
    if (IsType(child, "import_statement") || IsType(child, "import_from_statement")) {
      for (ImportBinding& binding : ImportBindings(document, child, module, is_package)) {
        binding.scope_start = scope.start;
        binding.scope_end = scope.end;
        binding.top_level = scope.top_level;
        out.push_back(std::move(binding));
      }
    } else if (IsType(child, "function_definition") || IsType(child, "class_definition")) {
      // A class body's names are not visible in its methods, but an import there is rare
      // enough that treating it as the class's scope is close enough.
      Scope inner{ts_node_start_byte(child), ts_node_end_byte(child), false};
      Collect(document, Field(child, "body"), module, is_package, inner, out);
    } else if (MayHoldStatements(child)) {
      Collect(document, child, module, is_package, scope, out);
    }
  });
}

}  // namespace

std::vector<ImportBinding> ImportBindings(const Document& document, TSNode statement,
                                          std::string_view module, bool is_package) {
  std::vector<ImportBinding> bindings;
  const int line = document.NodeStart(statement).line + 1;
  const size_t end_byte = ts_node_end_byte(statement);
  auto add = [&](std::string local_name, std::string target_module, std::string name) {
    ImportBinding binding;
    binding.local_name = std::move(local_name);
    binding.module = std::move(target_module);
    binding.name = std::move(name);
    binding.line = line;
    binding.end_byte = end_byte;
    bindings.push_back(std::move(binding));
  };

  if (IsType(statement, "import_statement")) {
    ForEachNamedChild(statement, [&](TSNode item) {
      if (IsType(item, "aliased_import")) {
        add(std::string(document.NodeText(Field(item, "alias"))),
            DottedName(document, Field(item, "name")), "");
      } else if (IsType(item, "dotted_name")) {
        // `import a.b.c` binds only `a`; attribute access reaches the rest.
        const std::string full = DottedName(document, item);
        const std::string head = full.substr(0, full.find('.'));
        add(head, head, "");
      }
    });
    return bindings;
  }
  if (!IsType(statement, "import_from_statement")) return bindings;

  TSNode source = Field(statement, "module_name");
  std::string source_module;
  if (IsType(source, "relative_import")) {
    int level = 0;
    std::string name;
    ForEachNamedChild(source, [&](TSNode part) {
      if (IsType(part, "import_prefix")) {
        for (char c : document.NodeText(part)) level += c == '.';
      } else if (IsType(part, "dotted_name")) {
        name = DottedName(document, part);
      }
    });
    source_module = ResolveRelativeModule(module, is_package, level, name).value_or("");
  } else {
    source_module = DottedName(document, source);
  }
  ForEachNamedChild(statement, [&](TSNode item) {
    if (ts_node_eq(item, source)) return;
    if (IsType(item, "wildcard_import")) {
      add("*", source_module, "*");
    } else if (IsType(item, "aliased_import")) {
      add(std::string(document.NodeText(Field(item, "alias"))), source_module,
          DottedName(document, Field(item, "name")));
    } else if (IsType(item, "dotted_name")) {
      std::string name = DottedName(document, item);
      add(name, source_module, name);
    }
  });
  return bindings;
}

std::vector<ImportBinding> ImportsOf(const Document& document, std::string_view module,
                                     bool is_package) {
  std::vector<ImportBinding> imports;
  TSNode root = document.root();
  Collect(document, root, module, is_package, Scope{0, document.text().size(), true}, imports);
  return imports;
}

}  // namespace smallfix
