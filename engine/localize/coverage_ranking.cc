#include "engine/localize/coverage_ranking.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace smallfix {
namespace {

// "tests/test_zero.py::test_a[x]" or "test_a[x]" -> "test_a".
std::string BareTestName(std::string_view name) {
  const size_t colons = name.rfind("::");
  if (colons != std::string_view::npos) name.remove_prefix(colons + 2);
  const size_t bracket = name.find('[');
  if (bracket != std::string_view::npos) name = name.substr(0, bracket);
  return std::string(name);
}

// coverage.py contexts: "tests.test_zero.test_a", "test_zero.TestX.test_a|run"; "" is the
// context of code run outside any test (imports).
std::string ContextTestName(std::string_view context) {
  const size_t bar = context.find('|');
  if (bar != std::string_view::npos) context = context.substr(0, bar);
  const size_t dot = context.rfind('.');
  if (dot != std::string_view::npos) context.remove_prefix(dot + 1);
  return BareTestName(context);
}

}  // namespace

absl::StatusOr<LineScores> OchiaiFromCoverageJson(std::string_view coverage_json,
                                                  const std::vector<std::string>& failed_tests,
                                                  const std::vector<std::string>& passed_tests,
                                                  const PathMapper& mapper) {
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(coverage_json.begin(), coverage_json.end());
  } catch (const nlohmann::json::exception& error) {
    return absl::InvalidArgumentError(
        absl::StrFormat("coverage JSON is not valid JSON: %s", error.what()));
  }
  if (!json.is_object() || !json.contains("files") || !json["files"].is_object()) {
    return absl::InvalidArgumentError(
        "coverage JSON has no \"files\" object: was it written by `coverage json`?");
  }
  std::set<std::string> failed, passed;
  for (const std::string& name : failed_tests) failed.insert(BareTestName(name));
  for (const std::string& name : passed_tests) passed.insert(BareTestName(name));
  if (failed.empty()) return LineScores();
  const double total_failed = static_cast<double>(failed.size());

  LineScores scores;
  try {
    for (const auto& [printed, file] : json["files"].items()) {
      std::optional<std::string> repo_file = mapper.Map(printed);
      if (!repo_file || PathMapper::IsTestFile(*repo_file)) continue;
      if (!file.contains("contexts") || !file["contexts"].is_object()) continue;
      for (const auto& [line_text, contexts] : file["contexts"].items()) {
        int failed_count = 0, passed_count = 0;
        std::set<std::string> seen;
        for (const auto& context : contexts) {
          if (!context.is_string()) continue;
          const std::string name = ContextTestName(context.get<std::string>());
          if (name.empty() || !seen.insert(name).second) continue;
          if (failed.count(name))
            ++failed_count;
          else if (passed.count(name))
            ++passed_count;
        }
        if (failed_count == 0) continue;
        const double score = failed_count / std::sqrt(total_failed * (failed_count + passed_count));
        scores[{*repo_file, std::atoi(line_text.c_str())}] = score;
      }
    }
  } catch (const nlohmann::json::exception& error) {
    return absl::InvalidArgumentError(
        absl::StrFormat("coverage JSON has an unexpected shape: %s", error.what()));
  }
  return scores;
}

absl::StatusOr<LineScores> OchiaiFromRun(const std::string& repo_root,
                                         std::string_view coverage_json,
                                         std::string_view junit_xml) {
  absl::StatusOr<std::vector<JUnitCase>> cases = ReadJUnit(junit_xml);
  absl::StatusOr<PathMapper> mapper = PathMapper::ForRepo(repo_root);
  if (!cases.ok() || !mapper.ok()) {
    return absl::FailedPreconditionError(
        "coverage ranking needs the JUnit report of the same run; it was unreadable");
  }
  const CaseTally tally = TallyCases(*cases);
  return OchiaiFromCoverageJson(coverage_json, tally.failed, tally.passed, *mapper);
}

void CombineWithCoverage(const LineScores& coverage, double trace_weight, const Symptom& symptom,
                         const LineScores& boosted, std::vector<Site>* sites) {
  std::set<std::pair<std::string, int>> named;
  for (Site& site : *sites) {
    const std::pair<std::string, int> key(site.file, site.line);
    const auto it = coverage.find(key);
    const double covered = it == coverage.end() ? 0.0 : it->second;
    const auto boost = boosted.find(key);
    site.score = trace_weight * site.score +
                 (1 - trace_weight) * (boost == boosted.end() ? covered : boost->second);
    named.insert(key);
  }
  // The boosted lines first: the stable sorts keep them ahead of equal scores.
  std::vector<std::pair<double, std::pair<std::string, int>>> extra;
  for (const auto& [key, score] : boosted) {
    if (named.insert(key).second) extra.push_back({score, key});
  }
  const size_t kept = extra.size() + 20;
  for (const auto& [key, score] : coverage) {
    if (!named.count(key) && score > 0) extra.push_back({score, key});
  }
  std::stable_sort(extra.begin(), extra.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  if (extra.size() > kept) extra.resize(kept);
  for (const auto& [score, key] : extra) {
    Site site;
    site.file = key.first;
    site.line = key.second;
    site.score = (1 - trace_weight) * score;
    site.symptom = symptom.Text();
    site.symptom_class = symptom.symptom_class;
    sites->push_back(std::move(site));
  }
}

}  // namespace smallfix
