#include "engine/localize/named_class.h"

#include <re2/re2.h>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "engine/localize/path_mapper.h"

namespace smallfix {
namespace {

size_t Indent(std::string_view text) {
  const size_t start = text.find_first_not_of(" \t");
  return start == std::string_view::npos ? text.size() : start;
}

bool Blank(std::string_view text) {
  const size_t start = text.find_first_not_of(" \t\r");
  return start == std::string_view::npos || text[start] == '#';
}

std::string LastPart(const std::string& dotted) {
  const size_t dot = dotted.rfind('.');
  return dot == std::string::npos ? dotted : dotted.substr(dot + 1);
}

// Types of the language and of torch that no repo defines.
bool Builtin(const std::string& name) {
  static constexpr std::string_view kNames[] = {"NoneType",
                                                "str",
                                                "int",
                                                "float",
                                                "bool",
                                                "dict",
                                                "list",
                                                "tuple",
                                                "set",
                                                "bytes",
                                                "object",
                                                "function",
                                                "method",
                                                "module",
                                                "type",
                                                "Tensor",
                                                "Parameter",
                                                "generator",
                                                "builtin_function_or_method"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

// What one class body holds, as line numbers (1-based; 0 when absent).
struct ClassBody {
  int class_line = 0;
  int init_first = 0;           // __init__'s first statement
  int init_set = 0;             // __init__'s first `self.x = ...`
  std::vector<int> attr_sets;   // lines that set the named attribute
  std::vector<int> other_sets;  // the first attribute set of each other method
};

ClassBody ReadBody(const std::vector<std::string_view>& lines, size_t class_index,
                   const std::string& attr) {
  static const RE2* const def = new RE2(R"re(\s*(?:async\s+)?def\s+(\w+))re");
  static const RE2* const set_self = new RE2(
      R"re(\s*self\.(\w+)\s*(?::[^=]*)?=(?:[^=].*)?|.*\bsetattr\(\s*self\s*,\s*["'](\w+)["'].*)re");
  ClassBody body;
  body.class_line = static_cast<int>(class_index) + 1;
  const size_t class_indent = Indent(lines[class_index]);
  std::string method;
  size_t method_indent = 0;
  bool method_has_set = false;
  for (size_t i = class_index + 1; i < lines.size() && i < class_index + 5000; ++i) {
    const std::string_view text = lines[i];
    if (Blank(text)) continue;
    const size_t indent = Indent(text);
    if (indent <= class_indent) break;
    std::string name, set_name, setattr_name;
    re2::StringPiece input(text.data(), text.size());
    if (RE2::Consume(&input, *def, &name) && (method.empty() || indent <= method_indent)) {
      method = name;
      method_indent = indent;
      method_has_set = false;
      continue;
    }
    if (method.empty() || indent <= method_indent) continue;
    const int line = static_cast<int>(i) + 1;
    if (method == "__init__" && body.init_first == 0) body.init_first = line;
    if (!RE2::FullMatch(text, *set_self, &set_name, &setattr_name)) continue;
    const std::string& set = set_name.empty() ? setattr_name : set_name;
    if (!attr.empty() && set == attr) body.attr_sets.push_back(line);
    if (method == "__init__") {
      if (body.init_set == 0) body.init_set = line;
    } else if (!method_has_set) {
      body.other_sets.push_back(line);
    }
    method_has_set = true;
  }
  return body;
}

}  // namespace

std::optional<NamedClass> ClassNamedBy(const Symptom& symptom) {
  const std::string type = LastPart(symptom.exception_type);
  std::string name, attr;
  const std::string& message = symptom.message;
  if (type == "AttributeError") {
    if (!RE2::PartialMatch(message, R"re(^'([\w.]+)' object has no attribute '(\w+)')re", &name,
                           &attr) &&
        !RE2::PartialMatch(message, R"re(^type object '([\w.]+)' has no attribute '(\w+)')re",
                           &name, &attr)) {
      return std::nullopt;
    }
  } else if (type == "TypeError") {
    if (!RE2::PartialMatch(message, R"re(^'([\w.]+)' object is not \w+)re", &name) &&
        !RE2::PartialMatch(message, R"re(^object of type '([\w.]+)' has no len)re", &name) &&
        !RE2::PartialMatch(message, R"re(^argument of type '([\w.]+)' is not)re", &name)) {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  name = LastPart(name);
  if (name.empty() || Builtin(name)) return std::nullopt;
  return NamedClass{name, attr};
}

bool AnotherClassHasAttribute(const NamedClass& named, RepoSearch& search) {
  if (named.attr.empty()) return false;
  // `self.attr = ...`, `def attr(`, or a dataclass field `attr: int = 1`.
  const std::string& a = named.attr;
  const RE2 has(absl::StrCat(R"re(\s*self\.)re", a, R"re(\s*(?::[^=]*)?=(?:[^=].*)?)re",
                             R"re(|\s*(?:async\s+)?def\s+)re", a, R"re(\s*\(.*)re", R"re(|\s*)re",
                             a, R"re(\s*:\s*[\w.\[\], |]+(?:=.*)?)re"));
  static const RE2* const class_line = new RE2(R"re(\s*class\s+(\w+).*)re");
  for (const std::string& file : search.files()) {
    if (PathMapper::IsTestFile(file)) continue;
    const std::vector<std::string_view>& lines = search.FileLines(file);
    for (size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].find(named.attr) == std::string_view::npos ||
          !RE2::FullMatch(re2::StringPiece(lines[i].data(), lines[i].size()), has)) {
        continue;
      }
      // The class around it: the nearest `class` line above, indented less.
      size_t indent = Indent(lines[i]);
      for (size_t j = i; j-- > 0;) {
        if (Blank(lines[j]) || Indent(lines[j]) >= indent) continue;
        indent = Indent(lines[j]);
        std::string name;
        if (RE2::FullMatch(re2::StringPiece(lines[j].data(), lines[j].size()), *class_line,
                           &name)) {
          if (name != named.name) return true;
          break;
        }
        if (indent == 0) break;
      }
    }
  }
  return false;
}

std::vector<SearchHit> NamedClassSites(const NamedClass& named, RepoSearch& search,
                                       size_t max_hits) {
  std::vector<SearchHit> hits;
  const RE2 class_line(
      absl::StrCat(R"re(\s*class\s+)re", RE2::QuoteMeta(named.name), R"re(\s*[(:].*)re"));
  int classes = 0;
  for (const std::string& file : search.files()) {
    if (PathMapper::IsTestFile(file) || classes >= 2) continue;
    const std::vector<std::string_view>& lines = search.FileLines(file);
    for (size_t i = 0; i < lines.size() && classes < 2; ++i) {
      if (lines[i].find("class") == std::string_view::npos) continue;
      if (!RE2::FullMatch(re2::StringPiece(lines[i].data(), lines[i].size()), class_line)) {
        continue;
      }
      ++classes;
      const ClassBody body = ReadBody(lines, i, named.attr);
      const std::string what = absl::StrCat("class ", named.name);
      auto add = [&](int line, double weight, const std::string& why) {
        if (line <= 0) return;
        for (const SearchHit& hit : hits) {
          if (hit.file == file && hit.line == line) return;
        }
        hits.push_back({file, line, weight, why});
      };
      if (named.attr.empty()) add(body.class_line, 1.0, absl::StrCat(what, ", named by the error"));
      for (int line : body.attr_sets)
        add(line, 1.0, absl::StrCat(what, " sets '", named.attr, "' here"));
      add(body.init_set != 0 ? body.init_set : body.init_first, 0.95,
          absl::StrCat(what, "'s __init__"));
      for (int line : body.other_sets) add(line, 0.85, absl::StrCat(what, " sets attributes here"));
      add(body.class_line, 0.8, absl::StrCat(what, ", named by the error"));
    }
  }
  std::stable_sort(hits.begin(), hits.end(),
                   [](const SearchHit& a, const SearchHit& b) { return a.weight > b.weight; });
  if (hits.size() > max_hits) hits.resize(max_hits);
  return hits;
}

}  // namespace smallfix
