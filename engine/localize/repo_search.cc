#include "engine/localize/repo_search.h"

#include <re2/re2.h>

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/base/read_file.h"
#include "engine/localize/path_mapper.h"

namespace smallfix {
namespace {

std::string_view Trim(std::string_view text) {
  const size_t start = text.find_first_not_of(" \t");
  if (start == std::string_view::npos) return {};
  const size_t end = text.find_last_not_of(" \t\r");
  return text.substr(start, end - start + 1);
}

size_t Indent(std::string_view text) {
  const size_t start = text.find_first_not_of(" \t");
  return start == std::string_view::npos ? text.size() : start;
}

std::string Field(const Symptom& symptom, const std::string& name) {
  auto it = symptom.fields.find(name);
  return it == symptom.fields.end() ? std::string() : it->second;
}

std::string LastPart(std::string_view dotted) {
  const size_t dot = dotted.rfind('.');
  return std::string(dot == std::string_view::npos ? dotted : dotted.substr(dot + 1));
}

bool IsDefOrClass(std::string_view trimmed) {
  return trimmed.starts_with("def ") || trimmed.starts_with("async def ") ||
         trimmed.starts_with("class ");
}

bool IsComment(std::string_view trimmed) { return trimmed.starts_with("#"); }

// One search: a pattern a line must match (and a weight), optionally a second pattern that,
// when the line or the three after it match it too, makes the hit stronger.
struct Probe {
  std::string pattern;
  double weight = 1;
  std::string stronger;  // "" when none
  double weaker = 0.4;   // weight when `stronger` is given but not found
  bool skip_defs = true;
  std::string why;
};

}  // namespace

RepoSearch::RepoSearch(std::string repo_root, const std::vector<std::string>& files)
    : repo_root_(std::move(repo_root)) {
  for (const std::string& file : files) {
    if (!PathMapper::IsTestFile(file)) files_.push_back(file);
  }
  for (const std::string& file : files) {
    if (PathMapper::IsTestFile(file)) files_.push_back(file);
  }
}

RepoSearch RepoSearch::ForTexts(const std::map<std::string, std::string>& texts) {
  std::vector<std::string> files;
  for (const auto& [file, text] : texts) files.push_back(file);
  RepoSearch search("", files);
  search.texts_ = texts;
  search.in_memory_ = true;
  return search;
}

const std::vector<std::string_view>* RepoSearch::Lines(const std::string& file) {
  auto found = lines_.find(file);
  if (found != lines_.end()) return &found->second;
  std::vector<std::string_view>& lines = lines_[file];
  if (!in_memory_) {
    if (bytes_ >= kMaxBytes) {
      cut_ = true;
      return &lines;
    }
    absl::StatusOr<std::string> text = ReadFile(repo_root_ + "/" + file);
    if (!text.ok() || text->size() > kMaxFileBytes) return &lines;
    bytes_ += text->size();
    texts_[file] = *std::move(text);
  }
  auto text = texts_.find(file);
  if (text == texts_.end()) return &lines;
  std::string_view rest = text->second;
  while (!rest.empty()) {
    const size_t end = rest.find('\n');
    lines.push_back(rest.substr(0, end));
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  return &lines;
}

std::optional<std::string> RepoSearch::Line(const std::string& file, int line) {
  const std::vector<std::string_view>* lines = Lines(file);
  if (line < 1 || static_cast<size_t>(line) > lines->size()) return std::nullopt;
  return std::string((*lines)[line - 1]);
}

std::vector<std::string> RepoSearch::EnclosingParameters(const std::string& file, int line,
                                                         std::string* function) {
  std::vector<std::string> parameters;
  const std::vector<std::string_view>* lines = Lines(file);
  if (line < 1 || static_cast<size_t>(line) > lines->size()) return parameters;
  static const RE2* const def = new RE2(R"re(\s*(?:async\s+)?def\s+(\w+)\s*\()re");
  size_t indent = Indent((*lines)[line - 1]);
  for (int i = line - 2; i >= 0; --i) {
    const std::string_view text = (*lines)[i];
    if (Trim(text).empty() || Indent(text) >= indent) continue;
    indent = Indent(text);
    std::string name;
    re2::StringPiece input(text.data(), text.size());
    if (!RE2::Consume(&input, *def, &name)) continue;
    // The signature, up to the closing parenthesis (it may span lines).
    std::string signature(input.data(), input.size());
    for (size_t j = i + 1; j < lines->size() && j < static_cast<size_t>(i) + 20 &&
                           signature.find(')') == std::string::npos;
         ++j) {
      signature.append(" ").append((*lines)[j]);
    }
    signature = signature.substr(0, signature.find(')'));
    static const RE2* const parameter = new RE2(R"re((?:^|,)\s*\*{0,2}(\w+))re");
    re2::StringPiece params(signature);
    std::string parameter_name;
    while (RE2::FindAndConsume(&params, *parameter, &parameter_name)) {
      parameters.push_back(parameter_name);
    }
    *function = name;
    return parameters;
  }
  return parameters;
}

std::vector<SearchHit> RepoSearch::Callers(std::string_view function_view, size_t max_hits) {
  std::vector<SearchHit> hits;
  const std::string function(function_view);
  if (function.empty()) return hits;
  const RE2 call(
      absl::StrCat(R"re((?:^|[^\w])(?:\w+\.)*)re", RE2::QuoteMeta(function), R"re(\s*\()re"));
  for (const std::string& file : files_) {
    const std::vector<std::string_view>& lines = *Lines(file);
    for (size_t i = 0; i < lines.size() && hits.size() < max_hits; ++i) {
      const std::string_view trimmed = Trim(lines[i]);
      if (IsDefOrClass(trimmed) || IsComment(trimmed)) continue;
      if (RE2::PartialMatch(lines[i], call)) {
        hits.push_back({file, static_cast<int>(i) + 1, PathMapper::IsTestFile(file) ? 0.3 : 1.0,
                        absl::StrCat("calls ", function, "()")});
      }
    }
  }
  std::stable_sort(hits.begin(), hits.end(),
                   [](const SearchHit& a, const SearchHit& b) { return a.weight > b.weight; });
  return hits;
}

namespace {

// The def of the function a call-signature TypeError names ("got multiple values", "an
// unexpected keyword", "missing ... argument"): Python raises it while binding the call,
// before the callee's frame exists, so no traceback shows the def. For "multiple values" a
// def that writes the argument, with a default, ahead of a star (`def f(flag=True, *args)`:
// the first positional argument fills it too) is the one at fault; another def of the name
// weighs less. None for `__init__` (the class statement, not a def, is what callers name).
std::optional<Probe> DefProbe(const Symptom& symptom) {
  const std::string cls = symptom.symptom_class;
  if (cls != "unexpected-kwarg" && cls != "missing-argument" && cls != "multiple-values")
    return std::nullopt;
  const std::string name = LastPart(Field(symptom, "function"));
  if (name.empty() || name == "__init__") return std::nullopt;
  Probe probe{absl::StrCat(R"re(^\s*(?:async\s+)?def\s+)re", RE2::QuoteMeta(name), R"re(\s*\()re"),
              1,
              "",
              0.4,
              false,
              absl::StrCat("defines ", name, "()")};
  const std::string argument = Field(symptom, "argument");
  if (cls == "multiple-values" && !argument.empty()) {
    probe.stronger =
        absl::StrCat(R"re(\b)re", RE2::QuoteMeta(argument), R"re(\b[^*)]*=[^*)]*,\s*\*\w)re");
    probe.weaker = 0.2;
    probe.why = absl::StrCat("defines ", name, "() with '", argument, "' before *args");
  }
  return probe;
}

// The probes for what the symptom names: patterns of lines that may be its site, best first.
std::vector<Probe> ProbesFor(const Symptom& symptom) {
  std::vector<Probe> probes;
  const std::string& type = symptom.exception_type;
  const std::string& message = symptom.message;
  const std::string& cls = symptom.symptom_class;
  std::string a, b;
  if (cls == "import-error") {
    const std::string module = Field(symptom, "module");
    const std::string name = Field(symptom, "name");
    if (!module.empty() && !name.empty()) {
      const std::string m = RE2::QuoteMeta(module);
      probes.push_back({absl::StrCat(R"re(^\s*from\s+)re", m, R"re(\s+import\b)re"), 1,
                        absl::StrCat(R"re(\b)re", RE2::QuoteMeta(name), R"re(\b)re"), 0.5, true,
                        absl::StrCat("imports '", name, "' from '", module, "'")});
      probes.push_back({absl::StrCat(R"re(^\s*from\s+\.+)re", RE2::QuoteMeta(LastPart(module)),
                                     R"re(\s+import\b.*\b)re", RE2::QuoteMeta(name), R"re(\b)re"),
                        0.8, "", 0, true, absl::StrCat("imports '", name, "'")});
    } else if (!module.empty()) {
      const std::string m = RE2::QuoteMeta(module);
      probes.push_back({absl::StrCat(R"re(^\s*(?:from\s+)re", m,
                                     R"re((?:\.\w+)*\s+import\b|import\s+)re", m, R"re(\b))re"),
                        1, "", 0, true, absl::StrCat("imports '", module, "'")});
    }
  } else if (cls == "module-missing-attribute") {
    const std::string module = Field(symptom, "module");
    const std::string attr = Field(symptom, "attr");
    if (!attr.empty()) {
      probes.push_back({absl::StrCat(R"re(\w\.)re", RE2::QuoteMeta(attr), R"re(\b)re"), 1,
                        absl::StrCat(RE2::QuoteMeta(module), "|", RE2::QuoteMeta(LastPart(module)),
                                     R"re(|\bdist\b)re"),
                        0.6, true, absl::StrCat("uses '", module, ".", attr, "'")});
    }
  } else if (cls == "unexpected-kwarg" || cls == "missing-argument" || cls == "multiple-values") {
    std::string function = Field(symptom, "function");
    // "Class.__init__" is called as "Class(".
    if (function.ends_with(".__init__")) function = function.substr(0, function.size() - 9);
    const std::string name = LastPart(function);
    const std::string argument =
        cls == "unexpected-kwarg" ? Field(symptom, "kwarg") : Field(symptom, "argument");
    // With no frame at all, the calls are what the message names; a def that puts the
    // argument ahead of a star goes first (DefProbe weighs the other defs down).
    if (cls == "multiple-values") {
      if (std::optional<Probe> def = DefProbe(symptom)) probes.push_back(*std::move(def));
    }
    if (!name.empty()) {
      probes.push_back(
          {absl::StrCat(R"re((?:^|[^\w])(?:\w+\.)*)re", RE2::QuoteMeta(name), R"re(\s*\()re"), 1,
           cls == "missing-argument" || argument.empty()
               ? std::string()
               : absl::StrCat(R"re(\b)re", RE2::QuoteMeta(argument), R"re(\s*=)re"),
           0.4, true, absl::StrCat("calls ", name, "()")});
    }
  } else if (RE2::PartialMatch(message, R"re(name '(\w+)' is not defined)re", &a)) {
    probes.push_back({absl::StrCat(R"re((?:^|[^\w.]))re", a, R"re(\b(?:[^=]|==|$))re"), 1, "", 0,
                      true, absl::StrCat("uses the name '", a, "'")});
  } else if (type == "AttributeError" &&
             RE2::PartialMatch(message, R"re(object has no attribute '(\w+)')re", &a)) {
    // Reads of ".a" (not assignments to it).
    probes.push_back({absl::StrCat(R"re(\.)re", a, R"re(\b(?:\s*[^=\s]|\s*==|\s*$))re"), 1, "", 0,
                      true, absl::StrCat("reads '.", a, "'")});
  } else if (cls == "key-error") {
    const std::string key = Field(symptom, "key");
    if (!key.empty()) {
      probes.push_back({absl::StrCat(R"re(\[\s*['"])re", RE2::QuoteMeta(key), R"re(['"]\s*\])re"),
                        1, "", 0, true, absl::StrCat("indexes with the key '", key, "'")});
    }
  }
  if (probes.empty() && RE2::PartialMatch(message, R"re('([A-Za-z_]\w{2,})')re", &b)) {
    probes.push_back({absl::StrCat(R"re(\b)re", b, R"re(\b)re"), 0.5, "", 0, true,
                      absl::StrCat("mentions '", b, "'")});
  }

  return probes;
}

// Whether the statement at lines[i] (that line, and the next ones while its brackets are
// open, at most 8) matches `pattern`: one of its lines, or the lines joined.
bool StatementMatches(const std::vector<std::string_view>& lines, size_t i, const RE2& pattern) {
  int open = 0;
  std::string statement;  // the lines so far, for a match that spans them (a def's parameters)
  for (size_t j = i; j < lines.size() && j < i + 8; ++j) {
    if (RE2::PartialMatch(re2::StringPiece(lines[j].data(), lines[j].size()), pattern)) {
      return true;
    }
    if (j > i) {
      statement += '\n';
      statement += lines[j];
      if (RE2::PartialMatch(statement, pattern)) return true;
    } else {
      statement = std::string(lines[j]);
    }
    for (char c : lines[j])
      open += (c == '(' || c == '[' || c == '{') - (c == ')' || c == ']' || c == '}');
    if (open <= 0) break;
  }
  return false;
}

// The hits of the probes over the search's files, strongest first, one per line.
std::vector<SearchHit> SearchProbes(RepoSearch& search, const std::vector<Probe>& probes,
                                    size_t max_hits) {
  std::vector<SearchHit> hits;
  for (const Probe& probe : probes) {
    const RE2 pattern(probe.pattern);
    std::optional<RE2> stronger;
    if (!probe.stronger.empty()) stronger.emplace(probe.stronger);
    if (!pattern.ok() || (stronger && !stronger->ok())) continue;
    for (const std::string& file : search.files()) {
      const std::vector<std::string_view>& lines = search.FileLines(file);
      for (size_t i = 0; i < lines.size(); ++i) {
        const std::string_view trimmed = Trim(lines[i]);
        if (IsComment(trimmed) || (probe.skip_defs && IsDefOrClass(trimmed))) continue;
        re2::StringPiece line(lines[i].data(), lines[i].size());
        if (!RE2::PartialMatch(line, pattern)) continue;
        double weight = probe.weight;
        if (stronger) {
          if (!StatementMatches(lines, i, *stronger)) weight *= probe.weaker;
        }
        if (PathMapper::IsTestFile(file)) weight *= 0.3;
        hits.push_back({file, static_cast<int>(i) + 1, weight, probe.why});
      }
    }
  }
  std::stable_sort(hits.begin(), hits.end(),
                   [](const SearchHit& x, const SearchHit& y) { return x.weight > y.weight; });
  // One hit per line.
  std::vector<SearchHit> unique;
  for (SearchHit& hit : hits) {
    if (std::none_of(unique.begin(), unique.end(), [&](const SearchHit& kept) {
          return kept.file == hit.file && kept.line == hit.line;
        })) {
      unique.push_back(std::move(hit));
    }
    if (unique.size() >= max_hits) break;
  }
  return unique;
}

}  // namespace

std::vector<SearchHit> RepoSearch::ForSymptom(const Symptom& symptom, size_t max_hits) {
  return SearchProbes(*this, ProbesFor(symptom), max_hits);
}

std::vector<SearchHit> RepoSearch::SignatureDefs(const Symptom& symptom, size_t max_hits) {
  std::optional<Probe> probe = DefProbe(symptom);
  if (!probe) return {};
  return SearchProbes(*this, {*std::move(probe)}, max_hits);
}

}  // namespace smallfix
