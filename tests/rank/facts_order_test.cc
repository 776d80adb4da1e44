// Ranking with the failing run's facts: what counts as touching the failing run, and the order
// DemoteUntouched leaves.
#include "engine/rank/facts_order.h"

#include "gtest/gtest.h"

namespace smallfix {
namespace {

constexpr char kBefore[] =
    "def sizes(params, scale):\n"   // 1
    "    out = []\n"                // 2
    "    for p in params:\n"        // 3
    "        out.append(p.grad)\n"  // 4
    "    return out\n"              // 5
    "\n"                            // 6
    "\n"                            // 7
    "def unrelated(x):\n"           // 8
    "    return x + 1\n";           // 9

RuntimeFacts Facts() {
  RuntimeFacts facts;
  FrameFacts test{"tests/test_m.py", 12, "test_sizes", {}};
  FrameFacts frame{"pkg/m.py", 4, "sizes", {}};
  frame.locals["p"] = ValueFacts{};
  frame.locals["scale"] = ValueFacts{};
  facts.frames = {test, frame};
  return facts;
}

// A candidate of `template_id` that replaces line `line` (1-based) of kBefore with `text`
// ("" removes nothing and inserts `text` before it when `insert` is set).
ScoredCandidate Edit(const std::string& id, int line, const std::string& text, bool insert,
                     const std::string& file = "pkg/m.py") {
  std::string after;
  int n = 1;
  for (size_t start = 0; start < std::string(kBefore).size(); ++n) {
    const size_t end = std::string(kBefore).find('\n', start) + 1;
    const std::string old = std::string(kBefore).substr(start, end - start);
    if (n == line) after += insert ? text + old : text;
    else after += old;
    start = end;
  }
  ScoredCandidate scored;
  scored.candidate.template_id = id;
  scored.candidate.changes = {{file, kBefore, after}};
  return scored;
}

TEST(FactsOrderTest, AnInsertionBeforeTheFrameLineTouchesIt) {
  EXPECT_TRUE(TouchesFailingRun(
      Edit("guard", 4, "        if p.grad is None:\n            continue\n", true).candidate,
      Facts()));
}

TEST(FactsOrderTest, CodeNamingAValueOfTheFrameTouchesIt) {
  // Line 2 is no frame's line, but the code added there reads `scale`, a local of the frame.
  EXPECT_TRUE(
      TouchesFailingRun(Edit("init", 2, "    out = [0] * int(scale)\n", false).candidate, Facts()));
}

TEST(FactsOrderTest, AnEditMatchedAtTheFrameLineTouchesItWhereverItGoes) {
  // Matched at the frame's line 4, the template edits line 9 (where what line 4 reads is made).
  ScoredCandidate followed = Edit("made-there", 9, "    return int(x) + 1\n", false);
  followed.candidate.file = "pkg/m.py";
  followed.candidate.line = 4;
  EXPECT_TRUE(TouchesFailingRun(followed.candidate, Facts()));
  followed.candidate.line = 9;
  EXPECT_FALSE(TouchesFailingRun(followed.candidate, Facts()));
}

TEST(FactsOrderTest, AnEditElsewhereTouchesNothing) {
  EXPECT_FALSE(
      TouchesFailingRun(Edit("far", 9, "    return x + 2\n", false).candidate, Facts()));
  // The frame's line, in a file the run never reached there.
  EXPECT_FALSE(TouchesFailingRun(
      Edit("other-file", 4, "        out.append(p)\n", false, "pkg/other.py").candidate, Facts()));
}

TEST(FactsOrderTest, UntouchedCandidatesGoLastInTheirOrder) {
  std::vector<ScoredCandidate> candidates = {
      Edit("far-1", 9, "    return x + 2\n", false),
      Edit("guard", 4, "        if p.grad is None:\n            continue\n", true),
      Edit("far-2", 8, "def unrelated(y):\n", false),
      Edit("wrap", 4, "        out.append(p.grad or 0)\n", false),
  };
  DemoteUntouched(Facts(), candidates);
  std::vector<std::string> order;
  for (const ScoredCandidate& c : candidates) order.push_back(c.candidate.template_id);
  EXPECT_EQ(order, (std::vector<std::string>{"guard", "wrap", "far-1", "far-2"}));
}

// An edit where the bad value was made (a call that had returned before the exception, so on
// no frame) stays where it ranked when the caller says it followed the value there.
TEST(FactsOrderTest, FollowedCandidatesStay) {
  std::vector<ScoredCandidate> candidates = {
      Edit("made-here", 9, "    return int(x) + 1\n", false),
      Edit("far", 8, "def unrelated(y):\n", false),
      Edit("guard", 4, "        if p.grad is None:\n            continue\n", true),
  };
  DemoteUntouched(Facts(), candidates,
                  [](const Candidate& c) { return c.template_id == "made-here"; });
  std::vector<std::string> order;
  for (const ScoredCandidate& c : candidates) order.push_back(c.candidate.template_id);
  EXPECT_EQ(order, (std::vector<std::string>{"made-here", "guard", "far"}));
}

TEST(FactsOrderTest, FactsWithoutFramesChangeNothing) {
  std::vector<ScoredCandidate> candidates = {Edit("far", 9, "    return x + 2\n", false),
                                             Edit("guard", 4, "        pass\n", true)};
  DemoteUntouched(RuntimeFacts{}, candidates);
  EXPECT_EQ(candidates[0].candidate.template_id, "far");
}

}  // namespace
}  // namespace smallfix
