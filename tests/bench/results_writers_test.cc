#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "engine/bench/smallfix/progress_bar.h"
#include "engine/bench/smallfix/results_chart.h"
#include "engine/bench/smallfix/results_json.h"
#include "engine/bench/smallfix/results_markdown.h"

namespace smallfix::bench {
namespace {

using ::testing::HasSubstr;

BenchRun SampleRun() {
  BenchRun run;
  run.mode = "issue";
  run.seconds = 125;
  run.jobs = 2;
  BugResult fixed;
  fixed.id = "guard-none-grad-skip";
  fixed.family = "guard";
  fixed.plausible = fixed.correct = true;
  fixed.correct_by = "ast";
  fixed.rank = 1;
  fixed.candidates = 7;
  fixed.validated = 1;
  fixed.seconds = 12.5;
  fixed.outcome = "fixed";
  fixed.template_id = "guard.none-continue";
  BugResult failed;
  failed.id = "other-off-by-one-cooldown";
  failed.family = "other";
  failed.world_size = 2;
  failed.seconds = 40;
  failed.outcome = "error";
  failed.error = "a | b <c> & \"d\"";
  run.bugs = {fixed, failed};
  return run;
}

// A tiny XML well-formedness check: tags balance and nest, attributes are quoted, and text
// holds no raw '<' or '&' outside entities.
bool WellFormedXml(const std::string& xml, std::string* why) {
  std::vector<std::string> open;
  size_t i = 0;
  bool root_seen = false;
  while (i < xml.size()) {
    if (xml[i] == '&') {
      const size_t semi = xml.find(';', i);
      const std::string entity = xml.substr(i, semi == std::string::npos ? 1 : semi - i + 1);
      if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" && entity != "&apos;") {
        *why = "bad entity at " + std::to_string(i);
        return false;
      }
      i = semi + 1;
      continue;
    }
    if (xml[i] != '<') {
      if (open.empty() && !std::isspace(static_cast<unsigned char>(xml[i]))) {
        *why = "text outside the root at " + std::to_string(i);
        return false;
      }
      ++i;
      continue;
    }
    const size_t end = xml.find('>', i);
    if (end == std::string::npos) {
      *why = "unclosed tag";
      return false;
    }
    std::string tag = xml.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.starts_with("?")) continue;  // the XML declaration
    if (tag.starts_with("/")) {
      if (open.empty() || open.back() != tag.substr(1)) {
        *why = "mismatched </" + tag.substr(1) + ">";
        return false;
      }
      open.pop_back();
      continue;
    }
    size_t quotes = 0;
    for (char c : tag) quotes += c == '"';
    if (quotes % 2 != 0) {
      *why = "unbalanced quotes in <" + tag + ">";
      return false;
    }
    const bool self_closing = tag.ends_with("/");
    const std::string name = tag.substr(0, tag.find_first_of(" \t\n/"));
    if (open.empty()) {
      if (root_seen) {
        *why = "a second root <" + name + ">";
        return false;
      }
      root_seen = true;
    }
    if (!self_closing) open.push_back(name);
  }
  if (!open.empty()) {
    *why = "unclosed <" + open.back() + ">";
    return false;
  }
  return root_seen;
}

TEST(WellFormedXmlTest, TheCheckerCatchesBrokenDocuments) {
  std::string why;
  EXPECT_TRUE(WellFormedXml("<svg a=\"1\"><g><rect/></g><text>a &amp; b</text></svg>", &why)) << why;
  EXPECT_FALSE(WellFormedXml("<svg><g></svg>", &why));
  EXPECT_FALSE(WellFormedXml("<svg><text>a & b</text></svg>", &why));
  EXPECT_FALSE(WellFormedXml("<svg a=\"1></svg>", &why));
  EXPECT_FALSE(WellFormedXml("<svg></svg><svg></svg>", &why));
}

TEST(ResultsSvgTest, IsWellFormedSvg) {
  const std::string svg = ResultsSvg(SampleRun());
  std::string why;
  EXPECT_TRUE(WellFormedXml(svg, &why)) << why << "\n" << svg;
  EXPECT_THAT(svg, HasSubstr("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_THAT(svg, HasSubstr("guard: 1 of 1 correct"));
  EXPECT_THAT(svg, HasSubstr("other: 0 of 1 plausible"));
  EXPECT_THAT(svg, HasSubstr("Time to a correct fix (1 bugs)"));
}

TEST(ResultsSvgTest, EmptyRunIsWellFormedToo) {
  BenchRun run;
  std::string why;
  EXPECT_TRUE(WellFormedXml(ResultsSvg(run), &why)) << why;
}

TEST(HistogramTest, RoundBinsCoverTheRange) {
  const Histogram histogram = MakeHistogram({1, 3, 9, 19.5, 99}, 10);
  EXPECT_DOUBLE_EQ(histogram.width, 10);
  ASSERT_EQ(histogram.counts.size(), 10u);
  EXPECT_EQ(histogram.counts[0], 3);
  EXPECT_EQ(histogram.counts[1], 1);
  EXPECT_EQ(histogram.counts[9], 1);
  EXPECT_EQ(MakeHistogram({}, 4).counts, (std::vector<int>{0, 0, 0, 0}));
  EXPECT_DOUBLE_EQ(MakeHistogram({31}, 10).width, 5);
}

TEST(ResultsMarkdownTest, HasTotalsAndOneRowPerBug) {
  const std::string markdown = ResultsMarkdown(SampleRun());
  EXPECT_THAT(markdown, HasSubstr("| family | bugs | plausible | correct |"));
  EXPECT_THAT(markdown, HasSubstr("| guard | 1 | 1 (100%) | 1 (100%) | 1 | 12.5 | 12.5 |"));
  EXPECT_THAT(markdown, HasSubstr("| **all** | 2 | 1 (50%) | 1 (50%) | 1 |"));
  EXPECT_THAT(markdown, HasSubstr("| guard-none-grad-skip | guard | 1 | yes | yes | 1 | 7 | 1 | 12.5 | fixed (ast) `guard.none-continue` |"));
  // A '|' in an error would break the table.
  EXPECT_THAT(markdown, HasSubstr("| other-off-by-one-cooldown | other | 2 | no | no | - | 0 | 0 | 40.0 | error: a / b"));
  // Every table row has the same number of cells as its header.
  std::istringstream lines(markdown);
  std::string line;
  int rows = 0;
  while (std::getline(lines, line)) {
    if (!line.starts_with("| ") || line.starts_with("| family")) continue;
    ++rows;
  }
  EXPECT_EQ(rows, 3 + 1 + 2);  // guard, other, all; the bug header; two bugs
}

TEST(ResultsMarkdownTest, NamesTheCoverageMode) {
  BenchRun run = SampleRun();
  run.mode = "issue+coverage";
  EXPECT_THAT(ResultsMarkdown(run),
              HasSubstr("Mode: `issue+coverage` (localized from issue.md and coverage over the tests)."));
  EXPECT_EQ(ResultsJson(run)["mode"], "issue+coverage");
}

TEST(ResultsJsonTest, FollowsTheContract) {
  const nlohmann::json json = ResultsJson(SampleRun());
  EXPECT_EQ(json["mode"], "issue");
  ASSERT_EQ(json["bugs"].size(), 2u);
  const nlohmann::json& first = json["bugs"][0];
  for (const char* key : {"id", "family", "world_size", "plausible", "correct", "rank", "candidates", "validated",
                          "seconds"}) {
    EXPECT_TRUE(first.contains(key)) << key;
  }
  EXPECT_EQ(first["rank"], 1);
  EXPECT_FALSE(first.contains("error"));
  EXPECT_TRUE(json["bugs"][1]["rank"].is_null());
  EXPECT_EQ(json["bugs"][1]["error"], "a | b <c> & \"d\"");
  EXPECT_EQ(json["totals"]["all"]["bugs"], 2);
  EXPECT_EQ(json["totals"]["guard"]["correct"], 1);
  EXPECT_EQ(json["totals"]["other"]["plausible"], 0);
}

TEST(ProgressBarTest, OneLinePerBugOffATerminal) {
  std::ostringstream out;
  ProgressBar progress(2, /*terminal=*/false, out);
  progress.Started("a");
  progress.Started("b");
  EXPECT_THAT(progress.Line(), HasSubstr("0/2"));
  EXPECT_THAT(progress.Line(), HasSubstr("running: a, b"));
  BugResult result;
  result.id = "a";
  result.outcome = "fixed";
  progress.Finished(result);
  progress.Close();
  EXPECT_THAT(out.str(), HasSubstr("bench: [1/2] a: fixed"));
  EXPECT_EQ(out.str().find('\r'), std::string::npos);
}

TEST(ProgressBarTest, RedrawsOnATerminal) {
  std::ostringstream out;
  ProgressBar progress(1, /*terminal=*/true, out);
  progress.Started("a");
  BugResult result;
  result.id = "a";
  progress.Finished(result);
  progress.Close();
  EXPECT_THAT(out.str(), HasSubstr("\rbench [########################] 1/1"));
  EXPECT_TRUE(out.str().ends_with("\n"));
}

}  // namespace
}  // namespace smallfix::bench
