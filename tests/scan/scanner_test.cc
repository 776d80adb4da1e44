#include "engine/scan/scanner.h"

#include <unistd.h>
#include <re2/re2.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "engine/index/python_files.h"
#include "engine/patterns/catalogue.h"
#include "engine/scan/scan_examples.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

const std::string kRepo = std::string(SMALLFIX_SOURCE_DIR) + "/tests/data/scan/repo";

const Catalogue& Templates() {
  static const Catalogue* catalogue = [] {
    absl::StatusOr<Catalogue> loaded = Catalogue::Load(std::string(SMALLFIX_SOURCE_DIR) + "/templates");
    EXPECT_TRUE(loaded.ok()) << loaded.status();
    return new Catalogue(*std::move(loaded));
  }();
  return *catalogue;
}

Scanner MakeScanner() {
  absl::StatusOr<Scanner> scanner =
      Scanner::Create(Templates().templates, Templates().history ? &*Templates().history : nullptr);
  EXPECT_TRUE(scanner.ok()) << scanner.status();
  return *std::move(scanner);
}

using Flag = std::tuple<std::string, int, std::string>;  // file, line, template

// The fixtures' annotations: a line ending in `# scan: ID[, ID]` must be flagged by each ID.
std::set<Flag> Annotations() {
  std::set<Flag> flags;
  const RE2 annotation("#\\s*scan:\\s*([a-z]+\\.[a-z-]+(?:,\\s*[a-z]+\\.[a-z-]+)*)\\s*$");
  const std::vector<std::string> files = *ListPythonFiles(kRepo);
  for (const std::string& file : files) {
    std::ifstream in(kRepo + "/" + file);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      std::string ids;
      if (!RE2::PartialMatch(line, annotation, &ids)) continue;
      std::stringstream list(ids);
      for (std::string id; std::getline(list, id, ',');) {
        id.erase(0, id.find_first_not_of(' '));
        flags.emplace(file, number, id);
      }
    }
  }
  return flags;
}

std::set<Flag> Flags(const ScanReport& report) {
  std::set<Flag> flags;
  for (const Finding& finding : report.findings) flags.emplace(finding.file, finding.line, finding.template_id);
  return flags;
}

TEST(ScannerTest, FlagsExactlyTheAnnotatedLines) {
  const std::set<Flag> expected = Annotations();
  ASSERT_GE(expected.size(), 6u);  // the fixtures cover every scanning template
  absl::StatusOr<ScanReport> report = MakeScanner().ScanRepo(kRepo, 2);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(Flags(*report), expected);
  EXPECT_EQ(report->files, 3);
  EXPECT_EQ(report->parsed, 2);  // clean.py has nothing any filter looks for
  EXPECT_TRUE(report->notes.empty());
}

TEST(ScannerTest, ThreadsDoNotChangeTheFindings) {
  const Scanner scanner = MakeScanner();
  absl::StatusOr<ScanReport> one = scanner.ScanRepo(kRepo, 1);
  absl::StatusOr<ScanReport> many = scanner.ScanRepo(kRepo, 8);
  ASSERT_TRUE(one.ok() && many.ok());
  ASSERT_EQ(one->findings.size(), many->findings.size());
  for (size_t i = 0; i < one->findings.size(); ++i) {
    EXPECT_EQ(one->findings[i].file, many->findings[i].file);
    EXPECT_EQ(one->findings[i].line, many->findings[i].line);
    EXPECT_EQ(one->findings[i].diff, many->findings[i].diff);
  }
}

TEST(ScannerTest, FindingsCarryTheProposedEdit) {
  absl::StatusOr<std::vector<Finding>> findings = MakeScanner().ScanText(
      "pkg/m.py", "def f(x, mask=None):\n    if mask == None:\n        return x\n");
  ASSERT_TRUE(findings.ok()) << findings.status();
  ASSERT_EQ(findings->size(), 1u);
  const Finding& finding = findings->front();
  EXPECT_EQ(finding.template_id, "guard.eq-none-is");
  EXPECT_EQ(finding.line, 2);
  EXPECT_EQ(finding.column, 13);
  EXPECT_THAT(finding.diff, HasSubstr("--- a/pkg/m.py"));
  EXPECT_THAT(finding.diff, HasSubstr("-    if mask == None:\n+    if mask is None:\n"));
}

TEST(ScannerTest, ANonUtf8FileIsSkippedWithANote) {
  const fs::path dir = fs::temp_directory_path() / ("smallfix_scan_non_utf8_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "latin1.py") << "# caf\xe9\nif x == None:\n    pass\n";
  std::ofstream(dir / "ok.py") << "if x == None:\n    pass\n";
  absl::StatusOr<ScanReport> report = MakeScanner().ScanRepo(dir.string(), 2);
  fs::remove_all(dir);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->findings.size(), 1u);
  EXPECT_EQ(report->findings[0].file, "ok.py");
  ASSERT_EQ(report->notes.size(), 1u);
  EXPECT_THAT(report->notes[0], HasSubstr("latin1.py"));
  EXPECT_THAT(report->notes[0], HasSubstr("UTF-8"));
}

TEST(ScannerTest, AMissingDirectoryIsAnError) {
  absl::StatusOr<ScanReport> report = MakeScanner().ScanRepo("/nonexistent/smallfix/repo", 1);
  EXPECT_FALSE(report.ok());
}

TEST(ScannerTest, RemovedApisComeFromTheTable) {
  // With a table that records no removal, the import of torch._six is not flagged.
  ApiHistory history = ApiHistory::FromChanges({{"torch", "torch._six", "torch", "torch 2.0", "", "module-move", "test"}});
  absl::StatusOr<Scanner> scanner = Scanner::Create(Templates().templates, &history);
  ASSERT_TRUE(scanner.ok());
  absl::StatusOr<std::vector<Finding>> findings = scanner->ScanText("m.py", "from torch._six import inf\n");
  ASSERT_TRUE(findings.ok());
  EXPECT_TRUE(findings->empty());
  history = ApiHistory::FromChanges({{"torch", "torch._six", "torch", "torch 2.0", "torch 2.0", "module-move", "test"}});
  scanner = Scanner::Create(Templates().templates, &history);
  findings = scanner->ScanText("m.py", "from torch._six import inf\n");
  ASSERT_TRUE(findings.ok());
  ASSERT_EQ(findings->size(), 1u);
  EXPECT_THAT(findings->front().diff, HasSubstr("+    from torch import inf"));
}

TEST(ScanExamplesTest, EveryStanzaIsCheckedAndPasses) {
  int checked = 0;
  for (const Template& t : Templates().templates) {
    for (const ExampleResult& result : CheckScanExamples(t, Templates().history ? &*Templates().history : nullptr)) {
      ++checked;
      EXPECT_TRUE(result.passed) << result.template_id << ": " << result.example << "\n" << result.detail;
    }
  }
  EXPECT_GE(checked, 10);
}

TEST(ScanExamplesTest, AWrongLineFails) {
  Template t = *std::find_if(Templates().templates.begin(), Templates().templates.end(),
                             [](const Template& t) { return t.id == "guard.eq-none-is"; });
  t.scan->examples[0].lines = {3};
  const std::vector<ExampleResult> results = CheckScanExamples(t, nullptr);
  ASSERT_FALSE(results.empty());
  EXPECT_FALSE(results[0].passed);
  EXPECT_THAT(results[0].detail, HasSubstr("expected findings on lines [3], found [2, 4]"));
}

}  // namespace
}  // namespace smallfix
