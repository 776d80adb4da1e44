#include "engine/bench/smallfix/bug_spec.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_format.h"
#include "engine/base/data_path.h"
#include "engine/base/read_file.h"

namespace smallfix::bench {
namespace {

namespace fs = std::filesystem;

absl::Status Malformed(const std::string& path, const YAML::Mark& mark, const std::string& what) {
  const int line = mark.line >= 0 ? mark.line + 1 : 1;
  return absl::InvalidArgumentError(absl::StrFormat("%s:%d: %s", path, line, what));
}

// Reads `node[key]` as a non-empty string.
absl::StatusOr<std::string> String(const YAML::Node& node, const char* key,
                                   const std::string& path) {
  const YAML::Node value = node[key];
  if (!value) return Malformed(path, node.Mark(), absl::StrFormat("missing `%s`", key));
  if (!value.IsScalar() || value.Scalar().empty()) {
    return Malformed(path, value.Mark(), absl::StrFormat("`%s` must be a non-empty string", key));
  }
  return value.Scalar();
}

// Reads `node[key]` as a positive integer.
absl::StatusOr<int> PositiveInt(const YAML::Node& node, const char* key, const std::string& path) {
  const YAML::Node value = node[key];
  if (!value) return Malformed(path, node.Mark(), absl::StrFormat("missing `%s`", key));
  int number = 0;
  if (!value.IsScalar() || !YAML::convert<int>::decode(value, number) || number <= 0) {
    return Malformed(path, value.Mark(), absl::StrFormat("`%s` must be a positive integer", key));
  }
  return number;
}

absl::StatusOr<BugSpec> FromNode(const YAML::Node& root, const std::string& path,
                                 const std::string& expected_id) {
  if (!root.IsMap()) return Malformed(path, root.Mark(), "expected a mapping of bug fields");
  BugSpec spec;
#define SMALLFIX_READ(target, reader, node, key) \
  {                                              \
    auto value = reader(node, key, path);        \
    if (!value.ok()) return value.status();      \
    target = *std::move(value);                  \
  }
  SMALLFIX_READ(spec.id, String, root, "id");
  SMALLFIX_READ(spec.title, String, root, "title");
  SMALLFIX_READ(spec.family, String, root, "family");
  SMALLFIX_READ(spec.pattern, String, root, "pattern");
  SMALLFIX_READ(spec.lines_changed, PositiveInt, root, "lines_changed");
  SMALLFIX_READ(spec.world_size, PositiveInt, root, "world_size");
  SMALLFIX_READ(spec.timeout, PositiveInt, root, "timeout");
  const YAML::Node site = root["site"];
  if (!site || !site.IsMap()) {
    return Malformed(path, site ? site.Mark() : root.Mark(), "`site` must be {file: F, line: N}");
  }
  SMALLFIX_READ(spec.site_file, String, site, "file");
  SMALLFIX_READ(spec.site_line, PositiveInt, site, "line");
  const YAML::Node tests = root["tests"];
  if (!tests || !tests.IsMap()) {
    return Malformed(path, tests ? tests.Mark() : root.Mark(),
                     "`tests` must map failing, passing and heldback");
  }
  SMALLFIX_READ(spec.failing_test, String, tests, "failing");
  SMALLFIX_READ(spec.passing_test, String, tests, "passing");
  SMALLFIX_READ(spec.heldback_test, String, tests, "heldback");
#undef SMALLFIX_READ
  static constexpr const char* kFamilies[] = {"guard", "param", "compat", "other"};
  if (std::find(std::begin(kFamilies), std::end(kFamilies), spec.family) == std::end(kFamilies)) {
    return Malformed(
        path, root["family"].Mark(),
        absl::StrFormat("unknown family `%s` (guard, param, compat or other)", spec.family));
  }
  if (!expected_id.empty() && spec.id != expected_id) {
    return Malformed(
        path, root["id"].Mark(),
        absl::StrFormat("id `%s` is not the directory's name `%s`", spec.id, expected_id));
  }
  return spec;
}

}  // namespace

absl::StatusOr<BugSpec> ParseBugSpec(const std::string& yaml_text, const std::string& path,
                                     const std::string& expected_id) {
  try {
    return FromNode(YAML::Load(yaml_text), path, expected_id);
  } catch (const YAML::Exception& error) {
    return Malformed(path, error.mark, error.msg);
  }
}

absl::StatusOr<BugSpec> LoadBugSpec(const std::string& bug_dir) {
  const fs::path dir(bug_dir);
  const std::string path = (dir / "bug.yaml").string();
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  absl::StatusOr<BugSpec> spec = ParseBugSpec(*text, path, dir.filename().string());
  if (!spec.ok()) return spec.status();
  spec->dir = dir.string();
  std::error_code error;
  if (!fs::is_directory(spec->ProjectDir(), error) || !fs::exists(spec->IssuePath(), error) ||
      !fs::exists(spec->FixPath(), error)) {
    return absl::NotFoundError(absl::StrFormat(
        "%s: the bug needs project/, issue.md and fix.diff beside its bug.yaml", path));
  }
  return spec;
}

absl::StatusOr<std::vector<BugSpec>> LoadBugs(const std::string& bugs_dir,
                                              const std::vector<std::string>& ids) {
  std::error_code error;
  if (!fs::is_directory(bugs_dir, error)) {
    return absl::NotFoundError(absl::StrFormat("--bugs-dir %s is not a directory", bugs_dir));
  }
  std::vector<std::string> names = ids;
  if (names.empty()) {
    for (const fs::directory_entry& entry : fs::directory_iterator(bugs_dir, error)) {
      if (entry.is_directory() && fs::exists(entry.path() / "bug.yaml"))
        names.push_back(entry.path().filename());
    }
    std::sort(names.begin(), names.end());
    if (names.empty())
      return absl::NotFoundError(absl::StrFormat("%s holds no bug (no */bug.yaml)", bugs_dir));
  }
  std::vector<BugSpec> bugs;
  for (const std::string& name : names) {
    const fs::path dir = fs::path(bugs_dir) / name;
    if (name.empty() || name.find('/') != std::string::npos ||
        !fs::exists(dir / "bug.yaml", error)) {
      return absl::InvalidArgumentError(
          absl::StrFormat("--bug %s: no such bug in %s", name, bugs_dir));
    }
    absl::StatusOr<BugSpec> spec = LoadBugSpec(dir.string());
    if (!spec.ok()) return spec.status();
    bugs.push_back(*std::move(spec));
  }
  return bugs;
}

std::string DefaultBugsDir() {
  return FindData("SMALLFIX_BUGS", "benchmarks/smallfix/bugs", "benchmarks/smallfix/bugs",
                  SMALLFIX_BUGS_DIR);
}

}  // namespace smallfix::bench
