#include "engine/rank/llm_prompt.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

ScoredCandidate MakeCandidate(const std::string& id, int line, const std::string& diff) {
  ScoredCandidate scored;
  scored.candidate.template_id = id;
  scored.candidate.summary = "summary of " + id;
  scored.candidate.file = "pkg/mod.py";
  scored.candidate.line = line;
  std::string before;
  for (int i = 1; i <= 40; ++i) before += "line_" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  scored.candidate.changes.push_back({"pkg/mod.py", before, before + "x = 1\n"});
  scored.diff = diff;
  return scored;
}

TEST(RankPrompt, ShowsTheFailureEachSiteOnceAndEveryCandidateWithItsId) {
  const ScoredCandidate a = MakeCandidate("guard.a", 20, "--- a\n+++ b\n+fix_a\n");
  const ScoredCandidate b = MakeCandidate("param.b", 20, "--- a\n+++ b\n+fix_b\n");
  const ChatRequest request = RankPrompt("AttributeError: boom", {{"c1", &a}, {"c2", &b}});
  EXPECT_THAT(request.user, HasSubstr("AttributeError: boom"));
  // The code around the site, numbered: lines 8..32, once although two candidates share it.
  EXPECT_THAT(request.user, HasSubstr("    8 | line_8 = 8\n"));
  EXPECT_THAT(request.user, HasSubstr("   32 | line_32 = 32\n"));
  EXPECT_THAT(request.user, Not(HasSubstr("line_7 =")));
  EXPECT_THAT(request.user, Not(HasSubstr("line_33 =")));
  EXPECT_EQ(request.user.find("### pkg/mod.py, line 20"), request.user.rfind("### pkg/mod.py, line 20"));
  EXPECT_THAT(request.user, HasSubstr("### candidate c1 (guard.a: summary of guard.a)\n\n```diff\n--- a\n+++ b\n+fix_a\n```"));
  EXPECT_THAT(request.user, HasSubstr("### candidate c2 (param.b: summary of param.b)"));
  EXPECT_EQ(request.schema["properties"]["order"]["items"]["enum"], nlohmann::json({"c1", "c2"}));
  EXPECT_THAT(request.system, HasSubstr("{\"order\""));
  EXPECT_EQ(request.schema_name, "candidate_order");
}

TEST(FailureExcerpt, KeepsTheHeadAndTheTailOfALongFailure) {
  EXPECT_EQ(FailureExcerpt("short"), "short");
  const std::string text = "HEAD" + std::string(20000, 'x') + "TAIL";
  const std::string excerpt = FailureExcerpt(text);
  EXPECT_TRUE(excerpt.starts_with("HEAD"));
  EXPECT_TRUE(excerpt.ends_with("TAIL"));
  EXPECT_THAT(excerpt, HasSubstr("[... 12008 characters left out ...]"));
  EXPECT_LT(excerpt.size(), 8100u);
}

TEST(ProposePrompt, AsksForAtMostNEditsAtTheGivenSites) {
  PromptSite site{"s1", "pkg/mod.py", 3, "    2 | def f(x):\n    3 |     return x.y\n", "return x.y", true};
  const ChatRequest request = ProposePrompt("AttributeError: y", {site}, 2);
  EXPECT_THAT(request.system, HasSubstr("at most 2 small fixes"));
  EXPECT_THAT(request.user, HasSubstr("### site s1: pkg/mod.py, line 3"));
  EXPECT_THAT(request.user, HasSubstr("The enclosing function"));
  EXPECT_THAT(request.user, HasSubstr("return x.y"));
  EXPECT_EQ(request.schema["properties"]["edits"]["maxItems"], 2);
  EXPECT_EQ(request.schema["properties"]["edits"]["items"]["properties"]["site"]["enum"], nlohmann::json({"s1"}));
}

TEST(NumberedLines, ClampsToTheText) {
  EXPECT_EQ(NumberedLines("a\r\nb\nc", 0, 9), "    1 | a\n    2 | b\n    3 | c\n");
  EXPECT_EQ(NumberedLines("a\nb\n", 2, 2), "    2 | b\n");
}

}  // namespace
}  // namespace smallfix
