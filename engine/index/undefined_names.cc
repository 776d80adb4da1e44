#include "engine/index/undefined_names.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "engine/index/builtin_names.h"
#include "engine/index/imports.h"
#include "engine/index/string_map.h"
#include "engine/index/tree_walk.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// Names every module, class body or method can read that builtins does not list.
constexpr std::string_view kImplicitNames[] = {
    "__annotations__", "__builtins__", "__class__",   "__dict__", "__file__",
    "__loader__",      "__module__",   "__package__", "__path__", "__qualname__",
    "__spec__",        "copyright",    "credits",     "license",  "WindowsError"};

bool IsImplicit(std::string_view name) {
  return IsBuiltinName(name) || std::find(std::begin(kImplicitNames), std::end(kImplicitNames),
                                          name) != std::end(kImplicitNames);
}

bool Is(TSNode node, TSNode other) { return !ts_node_is_null(other) && ts_node_eq(node, other); }

// Calls `leaf` for each identifier an assignment-like target binds: `a`, `a, (b, *c)`;
// `self.x` and `d[k]` bind no name.
template <typename Leaf>
void ForEachBoundIdentifier(TSNode target, Leaf&& leaf) {
  if (ts_node_is_null(target)) return;
  if (IsType(target, "identifier")) {
    leaf(target);
    return;
  }
  if (IsType(target, "attribute") || IsType(target, "subscript")) return;
  ForEachNamedChild(target, [&](TSNode child) { ForEachBoundIdentifier(child, leaf); });
}

// Every identifier under `node` (the names a match pattern or a type parameter binds).
template <typename Leaf>
void ForEachIdentifier(TSNode node, Leaf&& leaf) {
  WalkTree(node, [&](TSNode n) {
    if (IsType(n, "identifier")) leaf(n);
    return Walk::kDescend;
  });
}

// True when `identifier` (whose parent is `parent`) is not a read of a name: an attribute's
// name, a keyword, part of a module path, or the name a def, parameter or global binds.
bool IsNotARead(TSNode identifier, TSNode parent) {
  const std::string_view type = ts_node_type(parent);
  if (type == "attribute") return Is(identifier, Field(parent, "attribute"));
  if (type == "keyword_argument" || type == "default_parameter" ||
      type == "typed_default_parameter") {
    return Is(identifier, Field(parent, "name"));
  }
  if (type == "function_definition" || type == "class_definition")
    return Is(identifier, Field(parent, "name"));
  // `torch.Tensor` in an annotation: only the first part is a name.
  if (type == "member_type") return !Is(identifier, ts_node_named_child(parent, 0));
  static constexpr std::string_view kNeverReads[] = {
      "dotted_name",        "aliased_import",           "relative_import",
      "import_prefix",      "global_statement",         "nonlocal_statement",
      "parameters",         "lambda_parameters",        "typed_parameter",
      "list_splat_pattern", "dictionary_splat_pattern", "keyword_pattern",
      "delete_statement"};
  return std::find(std::begin(kNeverReads), std::end(kNeverReads), type) != std::end(kNeverReads);
}

// A handler that catches a NameError: `except NameError`, `except (NameError, ...)`, a bare
// `except:` or one for Exception / BaseException.
bool CatchesNameError(const Document& document, TSNode try_statement) {
  bool catches = false;
  ForEachNamedChild(try_statement, [&](TSNode clause) {
    if (!IsType(clause, "except_clause")) return;
    TSNode type = ts_node_named_child(clause, 0);
    if (ts_node_is_null(type) || IsType(type, "block")) {
      catches = true;
      return;
    }
    const std::string_view text = document.NodeText(type);
    catches |= text.find("NameError") != std::string_view::npos ||
               text.find("Exception") != std::string_view::npos;
  });
  return catches;
}

// What a node's ancestors say about it.
struct Context {
  TSNode parent = {};            // null for the module
  bool in_case_pattern = false;  // inside a match case's pattern (its names are bound, not read)
  bool guarded = false;          // inside the body of a try whose handler catches NameError
};

class Analysis {
 public:
  explicit Analysis(const Document& document) : document_(document) {}

  std::optional<std::vector<UndefinedName>> Run() {
    if (ts_node_has_error(document_.root())) return std::nullopt;
    // Pre-order, in source order, each node with what its ancestors say about it: climbing
    // to the ancestors per identifier (ts_node_parent walks down from the root) cost more
    // than the rest of the analysis.
    std::vector<std::pair<TSNode, Context>> stack = {{document_.root(), Context{}}};
    std::vector<TSNode> children;
    while (!stack.empty() && !dynamic_) {
      const auto [node, context] = stack.back();
      stack.pop_back();
      Visit(node, context);
      Context inner{node, context.in_case_pattern, context.guarded};
      if (IsType(node, "case_pattern")) inner.in_case_pattern = true;
      if (IsType(node, "case_clause") || IsType(node, "block")) inner.in_case_pattern = false;
      const TSNode guarded_body = IsType(node, "try_statement") && CatchesNameError(document_, node)
                                      ? Field(node, "body")
                                      : TSNode{};
      children.clear();
      ForEachNamedChild(node, [&](TSNode child) { children.push_back(child); });
      for (auto child = children.rbegin(); child != children.rend(); ++child) {
        Context at = inner;
        at.guarded |= Is(*child, guarded_body);
        stack.emplace_back(*child, at);
      }
    }
    if (dynamic_) return std::nullopt;
    std::vector<UndefinedName> out;
    for (UndefinedName& read : reads_) {
      if (!bound_.contains(read.name) && !IsImplicit(read.name)) out.push_back(std::move(read));
    }
    return out;
  }

 private:
  void Bind(TSNode identifier) { bound_.insert(std::string(document_.NodeText(identifier))); }

  void Visit(TSNode node, const Context& context) {
    const std::string_view type = ts_node_type(node);
    if (type == "identifier") {
      Read(node, context);
    } else if (type == "function_definition" || type == "class_definition") {
      Bind(Field(node, "name"));
    } else if (type == "parameters" || type == "lambda_parameters") {
      ForEachNamedChild(node, [&](TSNode parameter) {
        if (IsType(parameter, "identifier")) {
          Bind(parameter);
        } else if (IsType(parameter, "default_parameter") ||
                   IsType(parameter, "typed_default_parameter")) {
          Bind(Field(parameter, "name"));
        } else {
          // typed_parameter, *args, **kwargs: the identifiers that are not the annotation.
          ForEachNamedChild(parameter, [&](TSNode part) {
            if (IsType(part, "identifier")) Bind(part);
            if (IsType(part, "list_splat_pattern") || IsType(part, "dictionary_splat_pattern")) {
              ForEachNamedChild(part, [&](TSNode name) {
                if (IsType(name, "identifier")) Bind(name);
              });
            }
          });
        }
      });
    } else if (type == "assignment" || type == "augmented_assignment" || type == "for_statement" ||
               type == "for_in_clause") {
      ForEachBoundIdentifier(Field(node, "left"), [&](TSNode leaf) { Bind(leaf); });
    } else if (type == "as_pattern") {
      // with ... as x, except E as x
      ForEachBoundIdentifier(Field(node, "alias"), [&](TSNode leaf) { Bind(leaf); });
    } else if (type == "except_clause") {
      ForEachBoundIdentifier(Field(node, "alias"), [&](TSNode leaf) { Bind(leaf); });
    } else if (type == "named_expression") {
      Bind(Field(node, "name"));
    } else if (type == "global_statement" || type == "nonlocal_statement" ||
               type == "case_pattern") {
      ForEachIdentifier(node, [&](TSNode leaf) { Bind(leaf); });
    } else if (type == "type_parameter" && Is(node, Field(context.parent, "type_parameters"))) {
      // def f[T](...) binds T; Dict[str, T] in an annotation is a read of each.
      ForEachIdentifier(node, [&](TSNode leaf) { Bind(leaf); });
    } else if (type == "import_statement" || type == "import_from_statement" ||
               type == "future_import_statement") {
      for (const ImportBinding& binding : ImportBindings(document_, node, "", false)) {
        if (binding.local_name == "*") dynamic_ = true;
        bound_.insert(binding.local_name);
      }
    } else if (type == "call") {
      // globals()[name] = ..., exec(code): names the analysis cannot see.
      const std::string_view function = document_.NodeText(Field(node, "function"));
      dynamic_ |= function == "globals" || function == "exec" || function == "execfile";
    }
  }

  void Read(TSNode identifier, const Context& context) {
    const TSNode parent = context.parent;
    if (ts_node_is_null(parent) || IsNotARead(identifier, parent) || context.in_case_pattern)
      return;
    const std::string name(document_.NodeText(identifier));
    if (name == "__builtins__") dynamic_ = true;
    if (bound_.contains(name) || IsImplicit(name)) return;
    if (context.guarded) return;
    auto [it, inserted] = index_.emplace(name, reads_.size());
    if (inserted) {
      reads_.push_back(
          UndefinedName{name, static_cast<int>(document_.NodeStart(identifier).line) + 1, {}, {}});
    }
    UndefinedName& read = reads_[it->second];
    read.reads.push_back(ts_node_start_byte(identifier));
    if (IsType(parent, "attribute") && Is(identifier, Field(parent, "object"))) {
      std::string attribute(document_.NodeText(Field(parent, "attribute")));
      if (std::find(read.attributes.begin(), read.attributes.end(), attribute) ==
          read.attributes.end()) {
        read.attributes.push_back(std::move(attribute));
      }
    }
  }

  const Document& document_;
  StringSet bound_;
  StringMap<size_t> index_;
  std::vector<UndefinedName> reads_;
  bool dynamic_ = false;
};

}  // namespace

bool IsImplicitName(std::string_view name) { return IsImplicit(name); }

std::optional<std::vector<UndefinedName>> UndefinedNames(const Document& document) {
  return Analysis(document).Run();
}

}  // namespace smallfix
