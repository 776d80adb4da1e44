#include "engine/patterns/new_defects.h"

#include <map>
#include <set>
#include <string_view>
#include <vector>

#include "engine/base/concat.h"
#include "engine/index/tree_walk.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// A defect found: what it is, in words for the user, and the key two regions compare it by
// (the words themselves, unless a check says which code the defect belongs to apart from them).
struct Defect {
  std::string message;
  std::string key;
};
using Found = std::vector<Defect>;

void Add(Found& found, std::string message) {
  std::string key = message;
  found.push_back({std::move(message), std::move(key)});
}

// A node's text; "" for a null one (a field that a tree with syntax errors lacks).
std::string_view Text(const Document& document, TSNode node) {
  return ts_node_is_null(node) ? std::string_view() : document.NodeText(node);
}

// The node's tokens, comments left out: equal for two nodes that are the same code however
// they are spaced or broken over lines.
std::string Tokens(const Document& document, TSNode node) {
  std::string out;
  WalkTree(node, [&](TSNode n) {
    if (IsComment(n)) return Walk::kSkip;
    if (ts_node_child_count(n) == 0) {
      out.append(document.NodeText(n));
      out += ' ';
    }
    return Walk::kDescend;
  });
  return out;
}

// The text to show in a message: the code on one line, cut short.
std::string Shown(const Document& document, TSNode node) {
  std::string text(Trim(document.NodeText(node)));
  for (char& c : text) {
    if (c == '\n') c = ' ';
  }
  if (text.size() > 60) {  // cut at a character boundary: the message may reach JSON
    size_t cut = 57;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    text = text.substr(0, cut) + "...";
  }
  return text;
}

// Methods that relate their object to their argument, and functions that relate their two
// arguments: either with the same value twice answers a question nobody asks.
bool IsRelationMethod(std::string_view name) {
  static const std::set<std::string_view> kNames = {
      "issubset", "issuperset", "isdisjoint", "startswith", "endswith", "equal",
      "allclose", "isclose",    "eq",         "ne",         "lt",       "le",
      "gt",       "ge",         "__eq__",     "__ne__"};
  return kNames.contains(name);
}
bool IsRelationFunction(std::string_view name) {
  static const std::set<std::string_view> kNames = {"equal", "allclose", "isclose", "array_equal",
                                                    "issubclass"};
  return kNames.contains(name);
}

// The last name of a callee, `torch.equal` -> `equal`.
std::string_view CalleeName(const Document& document, TSNode function) {
  if (IsType(function, "attribute")) return Text(document, Field(function, "attribute"));
  if (IsType(function, "identifier")) return document.NodeText(function);
  return "";
}

void SelfComparisons(const Document& document, TSNode root, Found& found) {
  auto same = [&](TSNode a, TSNode b) {
    if (ts_node_is_null(a) || ts_node_is_null(b)) return false;
    return !HasCall(a) && Tokens(document, a) == Tokens(document, b);
  };
  auto report = [&](TSNode value) {
    Add(found, Concat("compares `", Shown(document, value), "` with itself"));
  };
  WalkTree(root, [&](TSNode node) {
    if (IsType(node, "comparison_operator")) {
      const std::vector<TSNode> operands = NamedChildrenSkippingComments(node);
      for (size_t i = 0; i + 1 < operands.size(); ++i) {
        if (same(operands[i], operands[i + 1])) report(operands[i]);
      }
    } else if (IsType(node, "boolean_operator")) {
      if (same(Field(node, "left"), Field(node, "right"))) report(Field(node, "left"));
    } else if (IsType(node, "call")) {
      const TSNode function = Field(node, "function");
      const TSNode arguments = Field(node, "arguments");
      if (!IsType(arguments, "argument_list")) return Walk::kDescend;
      const std::vector<TSNode> args = NamedChildrenSkippingComments(arguments);
      for (TSNode arg : args) {
        if (IsType(arg, "keyword_argument") || IsType(arg, "list_splat") ||
            IsType(arg, "dictionary_splat")) {
          return Walk::kDescend;
        }
      }
      const std::string_view name = CalleeName(document, function);
      if (IsType(function, "attribute") && args.size() == 1 && IsRelationMethod(name) &&
          same(Field(function, "object"), args[0])) {
        report(args[0]);
      } else if (args.size() == 2 && IsRelationFunction(name) && same(args[0], args[1])) {
        report(args[0]);
      }
    }
    return Walk::kDescend;
  });
}

// An `if` whose `else` does what the branch before it does: the last condition decides nothing.
// Two `elif` branches with the same body are left alone: their conditions differ, and people
// write `if a: x` / `elif b: x` for `if a or b: x` (a real TransformerEngine fix does).
void IdenticalBranches(const Document& document, TSNode root, Found& found) {
  WalkTree(root, [&](TSNode node) {
    if (IsType(node, "if_statement")) {
      TSNode last_branch = Field(node, "consequence"), condition = Field(node, "condition");
      TSNode else_body = {};
      ForEachNamedChild(node, [&](TSNode child) {
        if (IsType(child, "elif_clause")) {
          last_branch = Field(child, "consequence");
          condition = Field(child, "condition");
        }
        if (IsType(child, "else_clause")) else_body = Field(child, "body");
      });
      if (!ts_node_is_null(else_body) && !ts_node_is_null(last_branch) &&
          Tokens(document, last_branch) == Tokens(document, else_body)) {
        Add(found,
            Concat("gives `if ", Shown(document, condition), "` and its `else` the same code"));
      }
    } else if (IsType(node, "conditional_expression")) {
      const std::vector<TSNode> parts = NamedChildrenSkippingComments(node);
      if (parts.size() == 3 && Tokens(document, parts[0]) == Tokens(document, parts[2])) {
        Add(found, Concat("gives both arms of `", Shown(document, node), "` the same value"));
      }
    }
    return Walk::kDescend;
  });
}

// The defs of `class_node`'s body that stay methods: undecorated, or decorated with what keeps
// a def callable (`@override`, `@staticmethod`, `@torch.no_grad()`); a property, its setter or
// a cached property makes the name a value.
std::set<std::string> PlainMethods(const Document& document, TSNode class_node) {
  std::set<std::string> methods;
  ForEachNamedChild(Field(class_node, "body"), [&](TSNode child) {
    TSNode def = child;
    if (IsType(child, "decorated_definition")) {
      bool value = false;
      ForEachNamedChild(child, [&](TSNode decorator) {
        if (!IsType(decorator, "decorator")) return;
        const std::string_view text = document.NodeText(decorator);
        value |= text.find("property") != std::string_view::npos ||
                 text.find(".setter") != std::string_view::npos ||
                 text.find(".getter") != std::string_view::npos ||
                 text.find(".deleter") != std::string_view::npos;
      });
      if (value) return;
      def = Field(child, "definition");
    }
    if (IsType(def, "function_definition")) methods.emplace(Text(document, Field(def, "name")));
  });
  return methods;
}

// Whether `node` is read as a truth value or a bool result: a condition, an operand of
// `not`, `and`, `or` or a comparison, or what a def annotated `-> bool` returns.
bool UsedAsBool(const Document& document, TSNode node) {
  const TSNode parent = ts_node_parent(node);
  if (IsType(parent, "if_statement") || IsType(parent, "elif_clause") ||
      IsType(parent, "while_statement")) {
    return ts_node_eq(Field(parent, "condition"), node);
  }
  if (IsType(parent, "not_operator") || IsType(parent, "boolean_operator") ||
      IsType(parent, "comparison_operator")) {
    return true;
  }
  if (IsType(parent, "conditional_expression")) {
    const std::vector<TSNode> parts = NamedChildrenSkippingComments(parent);
    return parts.size() == 3 && ts_node_eq(parts[1], node);
  }
  if (IsType(parent, "return_statement")) {
    std::optional<TSNode> def = EnclosingOfType(parent, {"function_definition"});
    if (!def) return false;
    const TSNode annotation = Field(*def, "return_type");
    return !ts_node_is_null(annotation) && Trim(document.NodeText(annotation)) == "bool";
  }
  return false;
}

void UncalledMethods(const Document& document, TSNode root, Found& found) {
  std::map<uint32_t, std::set<std::string>> methods_of;  // by the class's start byte
  WalkTree(root, [&](TSNode node) {
    if (!IsType(node, "attribute") || Text(document, Field(node, "object")) != "self" ||
        !UsedAsBool(document, node)) {
      return Walk::kDescend;
    }
    std::optional<TSNode> def = EnclosingOfType(node, {"function_definition"});
    if (!def) return Walk::kDescend;
    const TSNode class_node = ClassOfMethod(*def);
    if (ts_node_is_null(class_node)) return Walk::kDescend;
    auto [methods, added] = methods_of.try_emplace(ts_node_start_byte(class_node));
    if (added) methods->second = PlainMethods(document, class_node);
    const std::string name(Text(document, Field(node, "attribute")));
    if (methods->second.contains(name)) {
      Add(found, Concat("tests the method `self.", name, "` without calling it"));
    }
    return Walk::kSkip;
  });
}

// The names a loop may give another value from one iteration to the next: its targets, and
// every name bound in its body or at the root of a target it assigns (`x` of `x.a = ...`).
// Whether identifier `n` is the name of an attribute (`b` of `a.b`), which names no variable.
bool IsAttributeName(TSNode n) {
  const TSNode parent = ts_node_parent(n);
  return IsType(parent, "attribute") && ts_node_eq(Field(parent, "attribute"), n);
}

std::set<std::string> BoundInLoop(const Document& document, TSNode loop) {
  std::set<std::string> bound;
  auto names_in = [&](TSNode target) {
    WalkTree(target, [&](TSNode n) {
      if (IsType(n, "identifier") && !IsAttributeName(n)) bound.emplace(document.NodeText(n));
      return Walk::kDescend;
    });
  };
  names_in(Field(loop, "left"));
  WalkTree(Field(loop, "body"), [&](TSNode n) {
    if (IsType(n, "assignment") || IsType(n, "augmented_assignment") ||
        IsType(n, "for_statement") || IsType(n, "for_in_clause")) {
      names_in(Field(n, "left"));
    } else if (IsType(n, "named_expression")) {
      names_in(Field(n, "name"));
    } else if (IsType(n, "as_pattern") || IsType(n, "except_clause")) {
      ForEachNamedChild(n, [&](TSNode child) {
        if (IsType(child, "as_pattern_target") || IsType(child, "identifier")) names_in(child);
      });
    } else if (IsType(n, "delete_statement") || IsType(n, "global_statement") ||
               IsType(n, "nonlocal_statement")) {
      names_in(n);
    }
    return Walk::kDescend;
  });
  return bound;
}

// The names that appear in a call in the loop's body: a call may change the object they name
// (`queue.pop()`, `fill(buffer)`), though not which object it is.
std::set<std::string> InCallsInLoop(const Document& document, TSNode loop) {
  std::set<std::string> names;
  WalkTree(Field(loop, "body"), [&](TSNode n) {
    if (!IsType(n, "call")) return Walk::kDescend;
    WalkTree(n, [&](TSNode m) {
      if (IsType(m, "identifier")) names.emplace(document.NodeText(m));
      return Walk::kDescend;
    });
    return Walk::kSkip;
  });
  return names;
}

// Whether the read `name` can only tell which object it is: an operand of `is` or `is not`.
bool IdentityOnly(const Document& document, TSNode name) {
  const TSNode parent = ts_node_parent(name);
  if (!IsType(parent, "comparison_operator")) return false;
  for (uint32_t i = 0; i < ts_node_child_count(parent); ++i) {
    const TSNode child = ts_node_child(parent, i);
    if (ts_node_is_named(child)) continue;
    const std::string_view op = document.NodeText(child);
    if (op != "is" && op != "is not" && op != "not") return false;
  }
  return true;
}

// Whether `condition`, tested in `loop`'s body, reads nothing an iteration may change: no
// call, no name the loop binds, and no name a call in the loop may change the object of
// (unless the condition only asks which object it is, `x is None`).
bool LoopInvariant(const Document& document, TSNode condition, TSNode loop) {
  if (HasCall(condition)) return false;
  const std::set<std::string> bound = BoundInLoop(document, loop);
  const std::set<std::string> in_calls = InCallsInLoop(document, loop);
  bool varies = false;
  WalkTree(condition, [&](TSNode n) {
    if (!IsType(n, "identifier") || IsAttributeName(n)) return Walk::kDescend;
    const std::string name(document.NodeText(n));
    varies |= bound.contains(name) || (in_calls.contains(name) && !IdentityOnly(document, n));
    return varies ? Walk::kStop : Walk::kDescend;
  });
  return !varies;
}

// An `if` without `else` in a `for` loop's body, on a condition no iteration changes, that
// either skips the iteration (`continue`) or is the body's only statement: it runs every
// iteration or none, so it belongs around the loop (where it also spares the loop's own work).
// A `while` loop is left alone: what its body calls decides whether it ends.
void LoopInvariantGuards(const Document& document, TSNode root, Found& found) {
  WalkTree(root, [&](TSNode node) {
    if (!IsType(node, "if_statement") || !ts_node_is_null(Field(node, "alternative"))) {
      return Walk::kDescend;
    }
    std::optional<TSNode> loop = EnclosingOfType(
        ts_node_parent(node),
        {"for_statement", "while_statement", "function_definition", "class_definition"});
    if (!loop || !IsType(*loop, "for_statement") ||
        !Contains(Field(*loop, "body"), ts_node_start_byte(node))) {
      return Walk::kDescend;
    }
    const std::vector<TSNode> body = NamedChildrenSkippingComments(Field(node, "consequence"));
    const bool skips = body.size() == 1 && IsType(body[0], "continue_statement");
    const std::vector<TSNode> loop_body = NamedChildrenSkippingComments(Field(*loop, "body"));
    const bool whole_body = loop_body.size() == 1 && ts_node_eq(loop_body[0], node);
    if (!skips && !whole_body) return Walk::kDescend;
    const TSNode condition = Field(node, "condition");
    if (!LoopInvariant(document, condition, *loop)) return Walk::kDescend;
    // Keyed by the loop, not the condition: a rewrite of a condition such a guard had already
    // writes no new defect.
    const std::string key =
        Concat(skips ? "continue in " : "guard of ", Tokens(document, Field(*loop, "left")), "in ",
               Tokens(document, Field(*loop, "right")));
    if (skips) {
      found.push_back({Concat("skips with `continue` on `", Shown(document, condition),
                              "`, which no iteration of the loop changes"),
                       key});
    } else {
      found.push_back({Concat("guards the loop's whole body with `", Shown(document, condition),
                              "`, which no iteration changes: the guard belongs around the loop"),
                       key});
    }
    return Walk::kDescend;
  });
}

// The name a `*args` or `**kwargs` parameter binds (`args` of `*args`, `*args: Any`), or "".
std::string_view SplatParameterName(const Document& document, TSNode parameter) {
  if (IsType(parameter, "typed_parameter")) parameter = ts_node_named_child(parameter, 0);
  if (!IsType(parameter, "list_splat_pattern") && !IsType(parameter, "dictionary_splat_pattern"))
    return {};
  const TSNode name = ts_node_named_child(parameter, 0);
  return IsType(name, "identifier") ? document.NodeText(name) : std::string_view();
}

// Each def's `*args` and `**kwargs` ("def\nparameter"), split by whether its body (nested defs
// and lambdas included) reads them.
struct SplatReads {
  std::map<std::string, int> read, unread;
};

SplatReads ReadSplats(const Document& document) {
  SplatReads out;
  WalkTree(document.root(), [&](TSNode def) {
    if (!IsType(def, "function_definition")) return Walk::kDescend;
    std::set<std::string_view> unread;
    ForEachNamedChild(Field(def, "parameters"), [&](TSNode parameter) {
      const std::string_view name = SplatParameterName(document, parameter);
      if (!name.empty() && !name.starts_with("_")) unread.insert(name);
    });
    if (unread.empty()) return Walk::kDescend;
    std::set<std::string_view> read;
    WalkTree(Field(def, "body"), [&](TSNode n) {
      if (!IsType(n, "identifier") || IsAttributeName(n)) return Walk::kDescend;
      const TSNode parent = ts_node_parent(n);
      if (IsType(parent, "keyword_argument") && ts_node_eq(Field(parent, "name"), n))
        return Walk::kDescend;
      if (unread.erase(document.NodeText(n))) read.insert(document.NodeText(n));
      return unread.empty() ? Walk::kStop : Walk::kDescend;
    });
    const std::string_view def_name = Text(document, Field(def, "name"));
    for (std::string_view name : read) ++out.read[Concat(def_name, "\n", name)];
    for (std::string_view name : unread) ++out.unread[Concat(def_name, "\n", name)];
    return Walk::kDescend;
  });
  return out;
}

// A def's `*args` or `**kwargs` that the code before read and the rewrite's no longer does:
// what the callers pass there is dropped, usually with the call the def was written to make
// (`self.launcher(*args)` gone from `__call__(self, index, *args)`). A catch-all the rewrite
// adds unread (`**kwargs` to accept what callers pass) is not one. Named parameters are left
// alone: an override keeps those its interface names, and real fixes stop reading one (a
// Lightning hook's `using_native_amp`, replaced by the trainer's own state).
std::string LostSplatReads(const Document& before, const Document& after) {
  const SplatReads old_reads = ReadSplats(before), new_reads = ReadSplats(after);
  for (const auto& [key, count] : new_reads.unread) {
    const auto old = old_reads.read.find(key);
    if (old == old_reads.read.end()) continue;
    const auto still = new_reads.read.find(key);
    if ((still == new_reads.read.end() ? 0 : still->second) >= old->second) continue;
    const size_t split = key.find('\n');
    return Concat("leaves `", key.substr(split + 1), "` of `", key.substr(0, split),
                  "` unread: what its callers pass there is dropped");
  }
  return "";
}

using Check = void (*)(const Document&, TSNode, Found&);
constexpr Check kChecks[] = {SelfComparisons, IdenticalBranches, UncalledMethods,
                             LoopInvariantGuards};

}  // namespace

std::string NewDefect(const Document& before, const Document& after) {
  if (std::string lost = LostSplatReads(before, after); !lost.empty()) return lost;
  for (Check check : kChecks) {
    Found old_found, new_found;
    check(before, before.root(), old_found);
    check(after, after.root(), new_found);
    std::map<std::string, int> count;
    for (const Defect& defect : old_found) ++count[defect.key];
    for (const Defect& defect : new_found) {
      if (--count[defect.key] < 0) return defect.message;
    }
  }
  return "";
}

}  // namespace smallfix
