#include "engine/mine/abstraction.h"

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "engine/source/syntax.h"

namespace smallfix::mine {

bool IsWellKnownName(std::string_view name) {
  static const auto* const kNames = new absl::flat_hash_set<std::string_view>{"None",
                                                                              "True",
                                                                              "False",
                                                                              "self",
                                                                              "cls",
                                                                              "super",
                                                                              "torch",
                                                                              "np",
                                                                              "numpy",
                                                                              "os",
                                                                              "sys",
                                                                              "math",
                                                                              "dist",
                                                                              "nn",
                                                                              "F",
                                                                              "logger",
                                                                              "logging",
                                                                              "warnings",
                                                                              "kwargs",
                                                                              "args",
                                                                              "len",
                                                                              "range",
                                                                              "isinstance",
                                                                              "hasattr",
                                                                              "getattr",
                                                                              "setattr",
                                                                              "int",
                                                                              "float",
                                                                              "str",
                                                                              "bool",
                                                                              "list",
                                                                              "dict",
                                                                              "tuple",
                                                                              "set",
                                                                              "print",
                                                                              "min",
                                                                              "max",
                                                                              "sum",
                                                                              "any",
                                                                              "all",
                                                                              "zip",
                                                                              "enumerate",
                                                                              "type",
                                                                              "Exception",
                                                                              "ValueError",
                                                                              "TypeError",
                                                                              "KeyError",
                                                                              "RuntimeError",
                                                                              "AttributeError",
                                                                              "IndexError",
                                                                              "NotImplementedError",
                                                                              "ImportError",
                                                                              "AssertionError",
                                                                              "__name__",
                                                                              "__init__",
                                                                              "device",
                                                                              "cuda",
                                                                              "dtype"};
  return kNames->contains(name);  // a set of views: looked up by view
}

std::string Abstracter::PlaceholderOf(std::string_view identifier) const {
  auto it = names_.find(std::string(identifier));
  return it == names_.end() ? "" : it->second;
}

std::string Abstracter::Name(std::string_view identifier) {
  if (IsWellKnownName(identifier)) return std::string(identifier);
  auto [it, added] = names_.try_emplace(std::string(identifier), "");
  if (added) {
    const size_t n = names_.size() - 1;
    it->second = absl::StrCat("$", std::string(1, static_cast<char>('A' + n % 26)),
                              n >= 26 ? absl::StrCat(n / 26) : "");
  }
  return it->second;
}

std::string Abstracter::Abstract(const Document& document, const std::vector<TSNode>& nodes) {
  std::string out;
  bool first = true;
  uint32_t previous_end = 0;
  const std::string_view text = document.text();
  auto add = [&](TSNode node, std::string_view token) {
    const uint32_t start = ts_node_start_byte(node);
    if (!first && start > previous_end) {
      const std::string_view gap = text.substr(previous_end, start - previous_end);
      if (gap.find('\n') != std::string_view::npos) {
        out += (!out.empty() && out.back() == ':') ? " " : "; ";
      } else {
        out += " ";
      }
    }
    out += token;
    first = false;
    previous_end = ts_node_end_byte(node);
  };
  for (TSNode root : nodes) {
    WalkTree(root, [&](TSNode node) {
      const std::string_view type = ts_node_type(node);
      if (IsComment(node)) return Walk::kSkip;
      if (type == "integer" || type == "float") {
        add(node, "$N");
        return Walk::kSkip;
      }
      if (type == "string" || type == "concatenated_string" || type == "string_content") {
        add(node, "$S");
        return Walk::kSkip;
      }
      if (type == "identifier") {
        add(node, Name(document.NodeText(node)));
        return Walk::kSkip;
      }
      if (ts_node_child_count(node) == 0) {
        add(node, document.NodeText(node));
        return Walk::kSkip;
      }
      return Walk::kDescend;
    });
  }
  return out;
}

}  // namespace smallfix::mine
