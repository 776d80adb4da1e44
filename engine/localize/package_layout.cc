#include "engine/localize/package_layout.h"

#include <re2/re2.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace smallfix {
namespace {

constexpr size_t kMaxMetadataBytes = size_t{1} << 20;

std::string ReadSmall(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::string text(kMaxMetadataBytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

std::string_view Trim(std::string_view text) {
  const size_t start = text.find_first_not_of(" \t\r");
  if (start == std::string_view::npos) return {};
  const size_t end = text.find_last_not_of(" \t\r");
  return text.substr(start, end - start + 1);
}

// "./accelerator/" -> "accelerator", "." -> "".
std::string NormalDir(std::string_view dir) {
  std::string out(Trim(dir));
  std::replace(out.begin(), out.end(), '\\', '/');
  while (out.starts_with("./")) out.erase(0, 2);
  if (out == ".") out.clear();
  while (!out.empty() && out.back() == '/') out.pop_back();
  return out;
}

std::string Join(const std::string& dir, std::string_view rest) {
  return dir.empty() ? std::string(rest) : dir + "/" + std::string(rest);
}

// Every "key": "value" (or key = "value") pair of a dict or inline-table literal.
template <typename Add>
void ForEachPair(std::string_view body, Add add) {
  static const RE2* const pair = new RE2(R"re(["']?([\w.]*)["']?\s*[:=]\s*["']([^"'\n]*)["'])re");
  re2::StringPiece input(body.data(), body.size());
  std::string key, value;
  while (RE2::FindAndConsume(&input, *pair, &key, &value)) add(key, value);
}

// Every quoted string of a list literal.
template <typename Add>
void ForEachString(std::string_view body, Add add) {
  static const RE2* const quoted = new RE2(R"re(["']([^"'\n]+)["'])re");
  re2::StringPiece input(body.data(), body.size());
  std::string value;
  while (RE2::FindAndConsume(&input, *quoted, &value)) add(value);
}

// The text from `open` at `start` to its matching `close` (no nesting of the same kind
// expected; the rest of the text when unclosed, at most 64 KiB).
std::string_view Bracketed(std::string_view text, size_t start, char close) {
  const size_t end = text.find(close, start);
  const size_t stop = end == std::string_view::npos ? text.size() : end;
  return text.substr(start, std::min<size_t>(stop - start, 64 << 10));
}

// A TOML or INI file as (table, key, value) triples; a value continues over the lines its
// brackets keep open (TOML) or over indented lines (INI).
struct Entry {
  std::string table, key, value;
};

std::vector<Entry> ReadEntries(std::string_view text, bool ini) {
  std::vector<Entry> entries;
  std::string table;
  int open = 0;
  size_t start = 0;
  while (start < text.size() && entries.size() < 10'000) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view raw = text.substr(start, end - start);
    start = end + 1;
    const std::string_view line = Trim(raw);
    const bool indented = !raw.empty() && (raw[0] == ' ' || raw[0] == '\t');
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (!entries.empty() && (open > 0 || (ini && indented))) {
      entries.back().value.append("\n").append(line);
    } else if (line[0] == '[' && line.back() == ']') {
      table = std::string(Trim(line.substr(1, line.size() - 2)));
      if (table.starts_with("[")) table = std::string(Trim(table.substr(1, table.size() - 2)));
      open = 0;
      continue;
    } else {
      const size_t eq = line.find('=');
      if (eq == std::string_view::npos) continue;
      std::string key(Trim(line.substr(0, eq)));
      if (key.size() >= 2 && (key.front() == '"' || key.front() == '\'')) {
        key = key.substr(1, key.size() - 2);
      }
      entries.push_back({table, key, std::string(Trim(line.substr(eq + 1)))});
      open = 0;
      for (char c : entries.back().value) open += (c == '[' || c == '{') - (c == ']' || c == '}');
      continue;
    }
    for (char c : line) open += (c == '[' || c == '{') - (c == ']' || c == '}');
  }
  return entries;
}

}  // namespace

void PackageLayout::AddDir(std::string module, std::string dir) {
  std::replace(module.begin(), module.end(), '.', '/');
  if (std::find(dirs_.begin(), dirs_.end(), std::make_pair(module, dir)) != dirs_.end()) return;
  if (!module.empty()) AddName(module.substr(0, module.find('/')));
  dirs_.emplace_back(std::move(module), std::move(dir));
}

void PackageLayout::AddName(std::string_view dotted) {
  std::string name(Trim(dotted.substr(0, dotted.find('.'))));
  if (name.empty() || name.size() > 200) return;
  std::replace(name.begin(), name.end(), '-', '_');
  names_.insert(name);
  std::transform(name.begin(), name.end(), name.begin(), [](char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  });
  names_.insert(std::move(name));
}

PackageLayout PackageLayout::ForRepo(const std::string& repo_root) {
  return FromTexts(ReadSmall(repo_root + "/setup.py"), ReadSmall(repo_root + "/setup.cfg"),
                   ReadSmall(repo_root + "/pyproject.toml"));
}

void PackageLayout::ReadSetupPy(std::string_view text) {
  auto add_dir = [&](const std::string& module, const std::string& dir) {
    AddDir(module, NormalDir(dir));
  };
  auto add_name = [&](const std::string& name) { AddName(name); };
  static const RE2* const py_dict = new RE2(R"re(\bpackage_dir\s*=\s*(\{|dict\())re");
  static const RE2* const py_list = new RE2(R"re(\b(?:packages|py_modules)\s*=\s*\[)re");
  static const RE2* const py_name = new RE2(R"re(\bname\s*=\s*["']([\w.-]+)["'])re");
  re2::StringPiece input(text.data(), text.size());
  std::string opener, name;
  while (RE2::FindAndConsume(&input, *py_dict, &opener)) {
    const size_t at = static_cast<size_t>(input.data() - text.data());
    const std::string_view body = Bracketed(text, at, opener == "{" ? '}' : ')');
    if (opener == "{") {
      ForEachPair(body, add_dir);
    } else {
      static const RE2* const keyword = new RE2(R"re((\w+)\s*=\s*["']([^"'\n]*)["'])re");
      re2::StringPiece pairs(body.data(), body.size());
      std::string key, value;
      while (RE2::FindAndConsume(&pairs, *keyword, &key, &value)) add_dir(key, value);
    }
  }
  input = re2::StringPiece(text.data(), text.size());
  while (RE2::FindAndConsume(&input, *py_list)) {
    const size_t at = static_cast<size_t>(input.data() - text.data());
    ForEachString(Bracketed(text, at, ']'), add_name);
  }
  if (RE2::PartialMatch(text, *py_name, &name)) add_name(name);
}

void PackageLayout::ReadSetupCfg(std::string_view text) {
  auto add_dir = [&](const std::string& module, const std::string& dir) {
    AddDir(module, NormalDir(dir));
  };
  auto add_name = [&](const std::string& name) { AddName(name); };
  for (const Entry& entry : ReadEntries(text, /*ini=*/true)) {
    if (entry.table == "options" && entry.key == "package_dir") {
      std::istringstream lines(entry.value);
      std::string line;
      while (std::getline(lines, line)) {
        const size_t eq = line.find('=');
        if (eq != std::string::npos)
          add_dir(std::string(Trim(std::string_view(line).substr(0, eq))), line.substr(eq + 1));
      }
    } else if (entry.table == "options" && entry.key == "packages") {
      std::string value = entry.value;
      std::replace(value.begin(), value.end(), ',', '\n');
      std::istringstream lines(value);
      std::string line;
      while (std::getline(lines, line)) {
        const std::string_view item = Trim(line);
        if (!item.empty() && item.find(':') == std::string_view::npos) add_name(std::string(item));
      }
    } else if (entry.table == "metadata" && entry.key == "name") {
      add_name(std::string(Trim(entry.value)));
    }
  }
}

void PackageLayout::ReadPyproject(std::string_view text) {
  auto add_dir = [&](const std::string& module, const std::string& dir) {
    AddDir(module, NormalDir(dir));
  };
  auto add_name = [&](const std::string& name) { AddName(name); };
  for (const Entry& entry : ReadEntries(text, /*ini=*/false)) {
    const std::string& t = entry.table;
    const std::string& k = entry.key;
    if ((t == "tool.setuptools" && k == "package-dir") || t == "tool.setuptools.package-dir") {
      if (t == "tool.setuptools.package-dir") {
        std::string value(Trim(entry.value));
        if (value.size() >= 2) add_dir(k, value.substr(1, value.size() - 2));
      } else {
        ForEachPair(entry.value, add_dir);
      }
    } else if ((t == "tool.setuptools" && (k == "packages" || k == "py-modules")) ||
               ((t == "project" || t == "tool.poetry") && k == "name")) {
      ForEachString(entry.value, add_name);
    } else if (t == "tool.poetry" && k == "packages") {
      static const RE2* const include =
          new RE2(R"re(include\s*=\s*"([^"]+)"(?:\s*,\s*from\s*=\s*"([^"]+)")?)re");
      re2::StringPiece items(entry.value);
      std::string what, from;
      while (RE2::FindAndConsume(&items, *include, &what, &from)) {
        add_dir(what, Join(NormalDir(from), what));
        from.clear();
      }
    } else if (t == "tool.hatch.build.targets.wheel" && k == "packages") {
      ForEachString(entry.value, [&](const std::string& path) {
        const std::string dir = NormalDir(path);
        add_dir(dir.substr(dir.rfind('/') + 1), dir);
      });
    } else if (t == "tool.hatch.build.targets.wheel.sources") {
      std::string value(Trim(entry.value));
      if (value.size() >= 2) add_dir(value.substr(1, value.size() - 2), k);
    }
  }
}

PackageLayout PackageLayout::FromTexts(std::string_view setup_py, std::string_view setup_cfg,
                                       std::string_view pyproject) {
  PackageLayout layout;
  layout.ReadSetupPy(setup_py);
  layout.ReadSetupCfg(setup_cfg);
  layout.ReadPyproject(pyproject);
  // The most specific mapping first.
  std::stable_sort(layout.dirs_.begin(), layout.dirs_.end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  return layout;
}

std::vector<std::string> PackageLayout::RepoPaths(std::string_view installed) const {
  std::vector<std::string> paths;
  for (const auto& [prefix, dir] : dirs_) {
    if (prefix.empty()) {
      paths.push_back(Join(dir, installed));
    } else if (installed.size() > prefix.size() && installed.starts_with(prefix) &&
               installed[prefix.size()] == '/') {
      paths.push_back(Join(dir, installed.substr(prefix.size() + 1)));
    }
  }
  return paths;
}

bool PackageLayout::Installs(std::string_view package) const {
  return names_.find(package) != names_.end();
}

}  // namespace smallfix
