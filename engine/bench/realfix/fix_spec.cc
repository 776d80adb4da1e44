#include "engine/bench/realfix/fix_spec.h"

#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "engine/base/read_file.h"
#include "nlohmann/json.hpp"

namespace smallfix::realfix {
namespace {

using nlohmann::json;

bool IsSha(const std::string& text) {
  if (text.size() != 40) return false;
  for (char c : text) {
    if (!absl::ascii_isxdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// Fills `spec` from one parsed line; the error names the field.
absl::Status FromJson(const json& line, FixSpec& spec) {
  if (!line.is_object()) return absl::InvalidArgumentError("expected a JSON object");
  auto text = [&](const char* field, std::string& out) -> absl::Status {
    auto it = line.find(field);
    if (it == line.end() || !it->is_string() || it->get<std::string>().empty()) {
      return absl::InvalidArgumentError(absl::StrFormat("`%s` must be a non-empty string", field));
    }
    out = it->get<std::string>();
    return absl::OkStatus();
  };
  for (auto [field, out] : {std::pair<const char*, std::string*>{"id", &spec.id},
                            {"repo", &spec.repo},
                            {"fix_commit", &spec.fix_commit},
                            {"parent_commit", &spec.parent_commit},
                            {"file", &spec.file},
                            {"family", &spec.family},
                            {"split", &spec.split}}) {
    if (absl::Status s = text(field, *out); !s.ok()) return s;
  }
  if (auto it = line.find("description"); it != line.end() && it->is_string())
    spec.description = *it;
  const std::vector<std::string> parts = absl::StrSplit(spec.repo, '/');
  if (parts.size() != 2 || parts[0].empty() || parts[1].empty()) {
    return absl::InvalidArgumentError(absl::StrFormat("`repo` %s: expected OWNER/NAME", spec.repo));
  }
  for (const std::string* sha : {&spec.fix_commit, &spec.parent_commit}) {
    if (!IsSha(*sha))
      return absl::InvalidArgumentError(
          absl::StrFormat("commit %s: expected a full 40-digit sha", *sha));
  }
  if (!spec.file.ends_with(".py") || spec.file.starts_with("/") ||
      spec.file.find("..") != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrFormat("`file` %s: expected a repo-relative .py path", spec.file));
  }
  static const std::set<std::string> kFamilies = {"guard", "param", "compat", "other"};
  if (!kFamilies.contains(spec.family)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("`family` %s: expected guard, param, compat or other", spec.family));
  }
  if (spec.split != "dev" && spec.split != "test") {
    return absl::InvalidArgumentError(
        absl::StrFormat("`split` %s: expected dev or test", spec.split));
  }
  auto lines = line.find("fault_lines");
  if (lines == line.end() || !lines->is_array() || lines->empty()) {
    return absl::InvalidArgumentError("`fault_lines` must be a non-empty list of line numbers");
  }
  for (const json& number : *lines) {
    if (!number.is_number_integer() || number.get<long long>() < 1) {
      return absl::InvalidArgumentError(
          absl::StrFormat("`fault_lines` %s: expected 1-based line numbers", lines->dump()));
    }
    spec.fault_lines.push_back(number.get<int>());
  }
  if (auto it = line.find("symptom"); it != line.end() && !it->is_null()) {
    if (!it->is_string()) return absl::InvalidArgumentError("`symptom` must be a string or null");
    if (!it->get<std::string>().empty()) spec.symptom = it->get<std::string>();
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<FixSpec>> ParseFixes(const std::string& text,
                                                const std::string& source) {
  std::vector<FixSpec> fixes;
  std::set<std::string> ids;
  int number = 0;
  for (absl::string_view raw : absl::StrSplit(text, '\n')) {
    ++number;
    const absl::string_view trimmed = absl::StripAsciiWhitespace(raw);
    if (trimmed.empty() || trimmed.front() == '#') continue;
    FixSpec spec;
    absl::Status status;
    try {
      status = FromJson(json::parse(trimmed), spec);
    } catch (const json::exception& e) {
      status = absl::InvalidArgumentError(absl::StrCat("not JSON: ", e.what()));
    }
    if (status.ok() && !ids.insert(spec.id).second) {
      status = absl::InvalidArgumentError(absl::StrFormat("id %s appears twice", spec.id));
    }
    if (!status.ok())
      return absl::InvalidArgumentError(
          absl::StrFormat("%s:%d: %s", source, number, status.message()));
    fixes.push_back(std::move(spec));
  }
  return fixes;
}

absl::StatusOr<std::vector<FixSpec>> LoadFixes(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok())
    return absl::NotFoundError(absl::StrFormat("--fixes %s", text.status().message()));
  return ParseFixes(*text, path);
}

}  // namespace smallfix::realfix
