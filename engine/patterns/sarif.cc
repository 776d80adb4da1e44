#include "engine/patterns/sarif.h"

#include "engine/source/diff.h"

namespace smallfix {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size() - 1;
    lines.push_back(text.substr(start, end - start + 1));
    start = end + 1;
  }
  return lines;
}

nlohmann::json ArtifactChanges(const std::vector<FileChange>& file_changes) {
  nlohmann::json changes = nlohmann::json::array();
  for (const FileChange& change : file_changes) {
    // The smallest range of whole lines that differs.
    const std::vector<std::string> before = Lines(change.before), after = Lines(change.after);
    const auto [prefix, suffix] = CommonEnds(
        before.size(), after.size(), [&](size_t i, size_t j) { return before[i] == after[j]; });
    std::string inserted;
    for (size_t i = prefix; i < after.size() - suffix; ++i) inserted += after[i];
    const int first = static_cast<int>(prefix) + 1;
    const int end_line = static_cast<int>(before.size() - suffix) + 1;  // exclusive
    changes.push_back(
        {{"artifactLocation", {{"uri", change.file}}},
         {"replacements",
          {{{"deletedRegion",
             {{"startLine", first}, {"startColumn", 1}, {"endLine", end_line}, {"endColumn", 1}}},
            {"insertedContent", {{"text", inserted}}}}}}});
  }
  return changes;
}

}  // namespace

nlohmann::json SarifRule(const Candidate& candidate) {
  return {{"id", candidate.template_id},
          {"name", candidate.template_id},
          {"shortDescription", {{"text", candidate.summary}}},
          {"properties", {{"family", candidate.family}}}};
}

nlohmann::json SarifResult(const Candidate& candidate, const std::string& level,
                           const std::string& message, nlohmann::json properties) {
  return {{"ruleId", candidate.template_id},
          {"level", level},
          {"message", {{"text", message}}},
          {"locations",
           {{{"physicalLocation",
              {{"artifactLocation", {{"uri", candidate.file}}},
               {"region", {{"startLine", candidate.line}}}}}}}},
          {"fixes",
           {{{"description", {{"text", candidate.summary}}},
             {"artifactChanges", ArtifactChanges(candidate.changes)}}}},
          {"properties", std::move(properties)}};
}

nlohmann::json SarifLog(nlohmann::json rules, nlohmann::json results) {
  return {
      {"version", "2.1.0"},
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"runs",
       {{{"tool",
          {{"driver",
            {{"name", "smallfix"}, {"version", SMALLFIX_VERSION}, {"rules", std::move(rules)}}}}},
         {"results", std::move(results)}}}}};
}

}  // namespace smallfix
