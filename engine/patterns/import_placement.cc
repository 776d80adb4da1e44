#include "engine/patterns/import_placement.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "engine/base/concat.h"
#include "engine/index/known_imports.h"
#include "engine/index/tree_walk.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// One import statement, new or already in the file.
struct ImportLine {
  bool from = false;   // `from m import ...`
  std::string module;  // "a.b", ".utils", "__future__"
  std::string name;    // from-imports: the one name added ("" for existing statements)
  std::string alias;   // `as alias`, "" if none
  // Existing statements only:
  TSNode node{};
  int group = -1;  // consecutive top-level imports with no blank line between
  int section = 0;
};

int EndLine(const Document& document, TSNode node) {
  return static_cast<int>(document.lines().ToPosition(ts_node_end_byte(node)).line);
}

enum Section { kFuture = 0, kStdlib = 1, kThirdParty = 2, kFirstParty = 3, kLocal = 4 };

int SectionOf(std::string_view module, const IsFirstParty& first_party) {
  if (module == "__future__") return kFuture;
  if (module.starts_with(".")) return kLocal;
  const std::string_view top = module.substr(0, module.find('.'));
  if (IsStdlibModule(top)) return kStdlib;
  if (first_party && first_party(top)) return kFirstParty;
  return kThirdParty;
}

std::vector<std::string_view> Words(std::string_view text) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    const size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

// `import a.b [as c]` or `from m import n [as k]`; nullopt for anything else.
std::optional<ImportLine> ParseNew(std::string_view statement) {
  const std::vector<std::string_view> w = Words(statement);
  ImportLine line;
  if (w.size() >= 2 && w[0] == "import" && (w.size() == 2 || (w.size() == 4 && w[2] == "as"))) {
    line.module = std::string(w[1]);
    if (w.size() == 4) line.alias = std::string(w[3]);
  } else if (w.size() >= 4 && w[0] == "from" && w[2] == "import" &&
             (w.size() == 4 || (w.size() == 6 && w[4] == "as"))) {
    line.from = true;
    line.module = std::string(w[1]);
    line.name = std::string(w[3]);
    if (w.size() == 6) line.alias = std::string(w[5]);
  } else {
    return std::nullopt;
  }
  auto word = [](std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
    });
  };
  if (!word(line.module) || (line.from && !word(line.name)) ||
      (!line.alias.empty() && !word(line.alias))) {
    return std::nullopt;
  }
  return line;
}

std::string ModuleText(const Document& document, TSNode statement) {
  if (IsType(statement, "future_import_statement")) return "__future__";
  if (IsType(statement, "import_from_statement")) {
    std::string text(document.NodeText(Field(statement, "module_name")));
    text.erase(std::remove_if(text.begin(), text.end(),
                              [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
               text.end());
    return text;
  }
  // `import a.b as c, d`: the first module names the line.
  TSNode first = Field(statement, "name");
  if (IsType(first, "aliased_import")) first = Field(first, "name");
  return std::string(document.NodeText(first));
}

// True when the lines strictly between `from` and `to` (0-based) are all comments: they do
// not separate two imports into blocks, a blank line does.
bool OnlyCommentsBetween(const Document& document, int from, int to) {
  for (int line = from + 1; line < to; ++line) {
    const std::string_view text = Trim(document.lines().Line(line));
    if (text.empty() || text[0] != '#') return false;
  }
  return true;
}

std::vector<ImportLine> TopLevelImports(const Document& document, const IsFirstParty& first_party) {
  std::vector<ImportLine> imports;
  int group = -1;
  int previous_end = -2;
  bool previous_was_import = false;
  ForEachNamedChild(document.root(), [&](TSNode child) {
    if (IsComment(child)) return;
    const bool is_import = IsType(child, "import_statement") ||
                           IsType(child, "import_from_statement") ||
                           IsType(child, "future_import_statement");
    if (!is_import) {
      previous_was_import = false;
      return;
    }
    const int start = static_cast<int>(document.NodeStart(child).line);
    if (!previous_was_import || !OnlyCommentsBetween(document, previous_end, start)) ++group;
    ImportLine line;
    line.from = !IsType(child, "import_statement");
    line.module = ModuleText(document, child);
    line.node = child;
    line.group = group;
    line.section = SectionOf(line.module, first_party);
    imports.push_back(std::move(line));
    previous_end = EndLine(document, child);
    previous_was_import = true;
  });
  return imports;
}

std::string Lower(std::string_view text) { return absl::AsciiStrToLower(std::string(text)); }
std::string AsIs(std::string_view text) { return std::string(text); }

std::string Key(std::string_view module) { return Lower(module); }

// isort's order of names in one from-import: CONSTANTS, then Classes, then the rest.
std::string TypedKey(std::string_view name) {
  const bool has_lower = std::any_of(
      name.begin(), name.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); });
  const char rank = name.size() > 1 && !has_lower                       ? '0'
                    : std::isupper(static_cast<unsigned char>(name[0])) ? '1'
                                                                        : '2';
  return Concat(std::string(1, rank), Lower(name));
}

// Where `key` goes among `keys`: the index of the first greater one when they are sorted,
// else their end (appended); keys.size() when it goes last.
size_t SortedPlace(const std::vector<std::string>& keys, const std::string& key) {
  if (!std::is_sorted(keys.begin(), keys.end())) return keys.size();
  return static_cast<size_t>(std::upper_bound(keys.begin(), keys.end(), key) - keys.begin());
}

std::string Ending(const Document& document) { return std::string(document.newline()); }

// Inserts `text` (a whole statement) on its own line before or after `statement`.
Edit InsertLine(const Document& document, TSNode statement, bool before, const std::string& text) {
  const std::string newline = Ending(document);
  if (before) {
    const size_t at =
        document.lines().LineStart(static_cast<int>(document.NodeStart(statement).line));
    return Edit{at, at, Concat(text, newline)};
  }
  const int last = EndLine(document, statement);
  const size_t at = document.lines().LineEndWithNewline(last);
  const bool ends_with_newline = at > 0 && document.text()[at - 1] == '\n';
  return Edit{at, at, ends_with_newline ? Concat(text, newline) : Concat(newline, text)};
}

// The names of an existing from-import: the name nodes (dotted_name or aliased_import).
std::vector<TSNode> FromNames(TSNode statement) {
  std::vector<TSNode> names;
  const uint32_t count = ts_node_child_count(statement);
  for (uint32_t i = 0; i < count; ++i) {
    const char* field = ts_node_field_name_for_child(statement, i);
    if (field != nullptr && std::string_view(field) == "name")
      names.push_back(ts_node_child(statement, i));
  }
  return names;
}

std::string BareName(const Document& document, TSNode name) {
  if (IsType(name, "aliased_import")) name = Field(name, "name");
  return std::string(document.NodeText(name));
}

// Adds `line.name` to the from-import `statement`.
absl::StatusOr<Edit> JoinFromImport(const Document& document, TSNode statement,
                                    const ImportLine& line) {
  const std::vector<TSNode> names = FromNames(statement);
  if (names.empty()) return absl::NotFoundError("a star import already brings every name");
  std::vector<std::string> bare;
  for (TSNode name : names) {
    bare.push_back(BareName(document, name));
    if (bare.back() == line.name && line.alias.empty() && !IsType(name, "aliased_import")) {
      return absl::NotFoundError(Concat("`", line.name, "` is already imported"));
    }
  }
  // The first order the list already follows: isort's typed order, case-sensitive, or
  // case-insensitive; none: the new name goes last.
  size_t place = names.size();
  using KeyFn = std::string (*)(std::string_view);
  static constexpr KeyFn kOrders[] = {TypedKey, AsIs, Lower};
  for (KeyFn key : kOrders) {
    std::vector<std::string> keys;
    for (const std::string& name : bare) keys.push_back(key(name));
    if (std::is_sorted(keys.begin(), keys.end())) {
      place = SortedPlace(keys, key(line.name));
      break;
    }
  }
  const std::string text = line.alias.empty() ? line.name : Concat(line.name, " as ", line.alias);
  const int statement_line = static_cast<int>(document.NodeStart(statement).line);
  // One name per line (a parenthesized list): the new one gets its own line too.
  auto own_line = [&](TSNode name) {
    return static_cast<int>(document.NodeStart(name).line) != statement_line;
  };
  if (place < names.size()) {
    const TSNode next = names[place];
    const size_t at = ts_node_start_byte(next);
    if (own_line(next)) {
      const int next_line = static_cast<int>(document.NodeStart(next).line);
      return Edit{at, at,
                  Concat(text, ",", Ending(document), LeadingWhitespace(document, next_line))};
    }
    return Edit{at, at, Concat(text, ", ")};
  }
  const TSNode last = names.back();
  const size_t end = ts_node_end_byte(last);
  if (!own_line(last)) return Edit{end, end, Concat(", ", text)};
  const int last_line = static_cast<int>(document.NodeStart(last).line);
  const std::string indent(LeadingWhitespace(document, last_line));
  const std::string_view rest = document.text().substr(end);
  const size_t comma = rest.find_first_not_of(" \t");
  if (comma != std::string_view::npos && rest[comma] == ',') {
    return Edit{end + comma + 1, end + comma + 1, Concat(Ending(document), indent, text, ",")};
  }
  return Edit{end, end, Concat(",", Ending(document), indent, text)};
}

bool AlreadyImported(const Document& document, const std::vector<ImportLine>& imports,
                     const ImportLine& line) {
  if (line.from) return false;  // checked when joining
  for (const ImportLine& existing : imports) {
    if (existing.from) continue;
    bool found = false;
    ForEachNamedChild(existing.node, [&](TSNode name) {
      std::string alias;
      if (IsType(name, "aliased_import")) {
        alias = std::string(document.NodeText(Field(name, "alias")));
        name = Field(name, "name");
      }
      found |= document.NodeText(name) == line.module && alias == line.alias;
    });
    if (found) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<Edit> PlaceImport(const Document& document, std::string_view statement,
                                 const IsFirstParty& first_party) {
  std::optional<ImportLine> added = ParseNew(statement);
  if (!added)
    return absl::InvalidArgumentError(Concat("not one import statement: `", statement, "`"));
  added->section = SectionOf(added->module, first_party);
  const std::vector<ImportLine> imports = TopLevelImports(document, first_party);
  if (imports.empty())
    return absl::NotFoundError("the module has no top-level import to place one by");
  if (AlreadyImported(document, imports, *added)) {
    return absl::NotFoundError(Concat("`", statement, "` is already there"));
  }
  if (added->from) {
    for (const ImportLine& existing : imports) {
      if (existing.from && existing.module == added->module &&
          !IsType(existing.node, "future_import_statement")) {
        return JoinFromImport(document, existing.node, *added);
      }
    }
  }
  const std::string text(Trim(statement));

  // The block: one holding the same top-level package, else the first of the same section.
  const std::string_view top = std::string_view(added->module).substr(0, added->module.find('.'));
  int group = -1;
  for (const ImportLine& existing : imports) {
    if (existing.section != added->section) continue;
    if (group < 0) group = existing.group;
    if (std::string_view(existing.module).substr(0, existing.module.find('.')) == top) {
      group = existing.group;
      break;
    }
  }
  if (group < 0) {
    // A section the file lacks: its own block after the last import of an earlier section,
    // else before the first import.
    const ImportLine* after = nullptr;
    for (const ImportLine& existing : imports) {
      if (existing.section < added->section) after = &existing;
    }
    const std::string newline = Ending(document);
    if (after != nullptr) return InsertLine(document, after->node, false, Concat(newline, text));
    return InsertLine(document, imports.front().node, true, Concat(text, newline));
  }

  // The block's lines of the same section; the file's style: plain imports before from-imports
  // (isort's default) unless some block mixes them (force_sort_within_sections).
  std::vector<const ImportLine*> block;
  for (const ImportLine& existing : imports) {
    if (existing.group == group && existing.section == added->section) block.push_back(&existing);
  }
  bool mixed = false;
  for (size_t i = 1; i < imports.size(); ++i) {
    mixed |= imports[i].group == imports[i - 1].group && imports[i - 1].from && !imports[i].from &&
             imports[i].section == imports[i - 1].section;
  }
  std::vector<const ImportLine*> kind;  // the lines the new one is sorted among
  for (const ImportLine* existing : block) {
    if (mixed || existing->from == added->from) kind.push_back(existing);
  }
  if (kind.empty()) {
    // The first plain import goes before the block's from-imports; the first from-import
    // after its plain ones.
    if (!added->from) return InsertLine(document, block.front()->node, true, text);
    return InsertLine(document, block.back()->node, false, text);
  }
  std::vector<std::string> keys;
  for (const ImportLine* existing : kind) keys.push_back(Key(existing->module));
  const size_t place = SortedPlace(keys, Key(added->module));
  if (place < kind.size()) return InsertLine(document, kind[place]->node, true, text);
  // Last of its kind: after the last plain import is before the first from-import.
  return InsertLine(document, kind.back()->node, false, text);
}

}  // namespace smallfix
