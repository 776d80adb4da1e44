#include "engine/scan/scan_examples.h"

#include <set>

#include "engine/base/concat.h"
#include "engine/scan/scanner.h"

namespace smallfix {
namespace {

std::string LineList(const std::set<int>& lines) {
  std::string text;
  for (int line : lines) text += Concat(text.empty() ? "" : ", ", std::to_string(line));
  return Concat("[", text, "]");
}

}  // namespace

std::vector<ExampleResult> CheckScanExamples(const Template& t, const ApiHistory* history) {
  std::vector<ExampleResult> results;
  if (!t.scan) return results;
  absl::StatusOr<Scanner> scanner = Scanner::Create({t}, history);
  for (const Template::Scan::Example& example : t.scan->examples) {
    ExampleResult result{t.id, Concat("scan: ", example.name), false, ""};
    if (!scanner.ok()) {
      result.detail = std::string(scanner.status().message());
      results.push_back(std::move(result));
      continue;
    }
    absl::StatusOr<std::vector<Finding>> findings = scanner->ScanText("example.py", example.code);
    if (!findings.ok()) {
      result.detail = Concat("the code does not scan: ", findings.status().message());
      results.push_back(std::move(result));
      continue;
    }
    std::set<int> found;
    for (const Finding& finding : *findings) found.insert(finding.line);
    const std::set<int> expected(example.lines.begin(), example.lines.end());
    result.passed = found == expected;
    if (!result.passed) {
      result.detail =
          Concat("expected findings on lines ", LineList(expected), ", found ", LineList(found));
    }
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace smallfix
