#include "engine/repair/multi_site_candidates.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

Document Parse(const std::string& text) {
  absl::StatusOr<Document> document = Document::Parse("pkg/loop.py", text);
  EXPECT_TRUE(document.ok()) << document.status();
  return *std::move(document);
}

// A generated candidate at `line` that turns `before` into `after`.
ScoredCandidate Single(const std::string& template_id, int line, const std::string& before, const std::string& after,
                       double prior = 0.1) {
  ScoredCandidate scored;
  scored.candidate.template_id = template_id;
  scored.candidate.family = "other";
  scored.candidate.summary = template_id;
  scored.candidate.file = "pkg/loop.py";
  scored.candidate.line = line;
  scored.candidate.prior = prior;
  scored.candidate.changes.push_back(FileChange{"pkg/loop.py", before, after});
  return scored;
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

const ScoredCandidate* Find(const std::vector<ScoredCandidate>& out, const std::string& template_id,
                            const std::string& after) {
  for (const ScoredCandidate& scored : out) {
    if (scored.candidate.template_id == template_id && scored.candidate.changes.front().after == after) return &scored;
  }
  return nullptr;
}

constexpr char kLoop[] =
    "def step(trainer):\n"
    "    trainer.train_loop.global_step -= 1\n"
    "    save(trainer)\n"
    "    trainer.train_loop.global_step += 1\n";

TEST(MultiSiteCandidatesTest, RepeatsARenameAtEveryOtherSiteLineAsWholeWords) {
  const Document document = Parse(kLoop);
  // The template renamed one attribute; the fix renames it on both lines.
  const std::string renamed = Replace(kLoop, "train_loop.global_step -= 1", "fit_loop.global_step -= 1");
  const std::vector<ScoredCandidate> out =
      MultiSiteCandidates(document, {2, 4}, {Single("generic.attribute-nearest", 2, kLoop, renamed)});
  const std::string both = Replace(renamed, "train_loop.global_step += 1", "fit_loop.global_step += 1");
  const ScoredCandidate* same = Find(out, "multi.same-edit", both);
  ASSERT_NE(same, nullptr);
  EXPECT_EQ(same->sites_covered, 2);
  EXPECT_EQ(same->parts, 1);
  EXPECT_EQ(same->lines_changed, 4);
  EXPECT_THAT(same->diff, testing::HasSubstr("+    trainer.fit_loop.global_step += 1"));
}

TEST(MultiSiteCandidatesTest, DoesNotRepeatAnEditInsideALongerName) {
  const std::string text =
      "def f(a):\n"
      "    x = a.loop\n"
      "    y = a.train_loop\n";
  const Document document = Parse(text);
  const std::string edited = Replace(text, "a.loop", "a.step");
  const std::vector<ScoredCandidate> out = MultiSiteCandidates(document, {2, 3}, {Single("t", 2, text, edited)});
  for (const ScoredCandidate& scored : out) EXPECT_NE(scored.candidate.template_id, "multi.same-edit");
}

TEST(MultiSiteCandidatesTest, RepeatsARemovedLineWhereTheSameLineIsASite) {
  const std::string text =
      "class A:\n"
      "    def f(self, infos, act):\n"
      "        del infos, act\n"
      "        return 1\n"
      "\n"
      "    def g(self, infos, act):\n"
      "        del infos, act\n"
      "        return 2\n";
  const Document document = Parse(text);
  const std::string removed = Replace(text, "        del infos, act\n        return 1", "        return 1");
  const std::vector<ScoredCandidate> out =
      MultiSiteCandidates(document, {3, 7}, {Single("generic.remove-statement", 3, text, removed)});
  const std::string both = Replace(removed, "        del infos, act\n        return 2", "        return 2");
  ASSERT_NE(Find(out, "multi.same-edit", both), nullptr);
}

TEST(MultiSiteCandidatesTest, ATwoCharacterChangeIsNotRepeated) {
  const std::string text =
      "def f(x):\n"
      "    a = x[1]\n"
      "    b = x[1]\n";
  const Document document = Parse(text);
  const std::vector<ScoredCandidate> out =
      MultiSiteCandidates(document, {2, 3}, {Single("t", 2, text, Replace(text, "a = x[1]", "a = x[0]"))});
  for (const ScoredCandidate& scored : out) EXPECT_NE(scored.candidate.template_id, "multi.same-edit");
}

TEST(MultiSiteCandidatesTest, CombinesTheBestCandidatesOfTwoSitesAndCountsTheirChoices) {
  const std::string text =
      "def f(n, m):\n"
      "    a = n - 1\n"
      "    b = g(m)\n";
  const Document document = Parse(text);
  const std::string first = Replace(text, "n - 1", "n");
  const std::string second = Replace(text, "g(m)", "g(m, 1)");
  const std::vector<ScoredCandidate> out =
      MultiSiteCandidates(document, {2, 3}, {Single("generic.drop-plus-minus-one", 2, text, first, 0.2),
                                            Single("generic.add-argument", 3, text, second, 0.3)});
  const ScoredCandidate* combined = Find(out, "multi.combined", Replace(first, "g(m)", "g(m, 1)"));
  ASSERT_NE(combined, nullptr);
  EXPECT_EQ(combined->sites_covered, 2);
  EXPECT_EQ(combined->parts, 3);  // two templates, and which match of each
  EXPECT_NEAR(combined->candidate.prior, 0.2 * 0.3, 1e-9);

  // The same template at both sites is one choice: the template, each site its own answer.
  const std::string other = Replace(text, "g(m)", "g(m - 1)");
  const std::string twice = Replace(text, "a = n - 1", "a = n");
  const std::vector<ScoredCandidate> same = MultiSiteCandidates(
      document, {2, 3}, {Single("t", 2, text, twice), Single("t", 3, text, other)});
  const ScoredCandidate* one_choice = Find(same, "multi.same-template", Replace(twice, "g(m)", "g(m - 1)"));
  ASSERT_NE(one_choice, nullptr);
  EXPECT_EQ(one_choice->parts, 1);
}

// One template answering at each line for itself (a different nearest name per line) is one
// choice, ranked with the same edit repeated; only its first answer at each line takes part.
TEST(MultiSiteCandidatesTest, OneTemplatesOwnAnswerAtEachSite) {
  const std::string text =
      "def f(fc1_weight, fc2_weight):\n"
      "    a = g(weight)\n"
      "    b = g(weight)\n";
  const Document document = Parse(text);
  const std::string one = Replace(text, "a = g(weight)", "a = g(fc1_weight)");
  const std::string two = Replace(text, "b = g(weight)", "b = g(fc2_weight)");
  const std::string two_late = Replace(text, "b = g(weight)", "b = g(fc1_weight)");
  std::vector<ScoredCandidate> singles = {Single("n", 2, text, one, 0.3), Single("n", 3, text, two, 0.2),
                                          Single("n", 3, text, two_late, 0.1)};
  const std::vector<ScoredCandidate> out = MultiSiteCandidates(document, {2, 3}, singles);
  const std::string each = Replace(one, "b = g(weight)", "b = g(fc2_weight)");
  const ScoredCandidate* own = Find(out, "multi.same-template", each);
  ASSERT_NE(own, nullptr);
  EXPECT_EQ(own->parts, 1);
  EXPECT_EQ(own->sites_covered, 2);
  EXPECT_NEAR(own->candidate.prior, 0.2, 1e-9);
  // The same edit repeated (line 2's answer on line 3) follows it at an equal prior.
  const std::string repeated = Replace(one, "b = g(weight)", "b = g(fc1_weight)");
  for (const ScoredCandidate& scored : out) {
    if (scored.candidate.changes.front().after == repeated) {
      EXPECT_NE(scored.candidate.template_id, "multi.same-template");
    }
  }
  // One site's answers alone are no combination.
  EXPECT_EQ(Find(MultiSiteCandidates(document, {2, 3}, {singles[0]}), "multi.same-template", each), nullptr);
}

TEST(MultiSiteCandidatesTest, KeepsOnlyTheBestPerSiteAndNothingForOneSite) {
  const std::string text =
      "def f(n, m):\n"
      "    a = n\n"
      "    b = m\n";
  const Document document = Parse(text);
  std::vector<ScoredCandidate> singles;
  for (int k = 0; k < 4; ++k) {
    singles.push_back(Single("t", 2, text, Replace(text, "a = n", "a = n + " + std::to_string(k + 10))));
    singles.push_back(Single("u", 3, text, Replace(text, "b = m", "b = m + " + std::to_string(k + 10))));
  }
  MultiSiteOptions options;
  options.per_site = 2;
  int combined = 0;
  for (const ScoredCandidate& scored : MultiSiteCandidates(document, {2, 3}, singles, options)) {
    if (scored.candidate.template_id != "multi.combined") continue;
    ++combined;
    EXPECT_THAT(scored.candidate.changes.front().after, testing::Not(testing::HasSubstr("+ 12")));
  }
  EXPECT_EQ(combined, 4);  // 2 x 2 pairs; the third and fourth of each site take no part
  EXPECT_TRUE(MultiSiteCandidates(document, {2}, singles).empty());
  EXPECT_TRUE(MultiSiteCandidates(document, {2, 2}, singles).empty());
}

TEST(MultiSiteCandidatesTest, OverlappingEditsAreNotCombined) {
  const std::string text =
      "def f(n):\n"
      "    return g(n,\n"
      "             n)\n";
  const Document document = Parse(text);
  // Both candidates rewrite the whole two-line statement.
  const std::string first = Replace(text, "g(n,\n             n)", "g(n)");
  const std::string second = Replace(text, "g(n,\n             n)", "h(n, n)");
  const std::vector<ScoredCandidate> out =
      MultiSiteCandidates(document, {2, 3}, {Single("t", 2, text, first), Single("u", 3, text, second)});
  for (const ScoredCandidate& scored : out) EXPECT_NE(scored.candidate.template_id, "multi.combined");
}

TEST(MultiSiteCandidatesTest, AStatementMoveIsACandidate) {
  const std::string text =
      "def f(a):\n"
      "    b = a\n"
      "    c = 1\n"
      "    d = b\n";
  const Document document = Parse(text);
  const std::vector<ScoredCandidate> out = MultiSiteCandidates(document, {2, 4}, {});
  const ScoredCandidate* moved = Find(out, "multi.move-statement",
                                      "def f(a):\n"
                                      "    c = 1\n"
                                      "    b = a\n"
                                      "    d = b\n");
  ASSERT_NE(moved, nullptr);
  EXPECT_EQ(moved->sites_covered, 2);
  EXPECT_EQ(moved->candidate.line, 2);
}

TEST(MultiSiteCandidatesTest, RemovesEveryStatementOnTheSites) {
  const std::string text =
      "import os\n"
      "import sys\n"
      "\n"
      "def f():\n"
      "    return 1\n";
  const Document document = Parse(text);
  const ScoredCandidate* removed =
      Find(MultiSiteCandidates(document, {1, 2}, {}), "multi.remove-statements", "\ndef f():\n    return 1\n");
  ASSERT_NE(removed, nullptr);
  EXPECT_EQ(removed->sites_covered, 2);
}

}  // namespace
}  // namespace smallfix

namespace smallfix {
namespace {

// The same method in two classes: a fix of one copy is made in both.
constexpr char kCopies[] =
    "class Half:\n"
    "    def init_context(self):\n"
    "        return Dtype(self.config.param_dtype or torch.float32)\n"
    "\n"
    "    def name(self):\n"
    "        return x\n"
    "\n"
    "\n"
    "class Full:\n"
    "    def init_context(self):\n"
    "        return Dtype(self.config.param_dtype or torch.float32)\n"
    "\n"
    "    def name(self):\n"
    "        return x\n";

TEST(SameEditAtCopiesTest, AnEditOfACopiedLineIsMadeInEachCopyFirst) {
  const Document document = Parse(kCopies);
  const std::string one = Replace(kCopies, "self.config.param_dtype or torch.float32", "self._dtype");
  const std::vector<ScoredCandidate> out =
      WithSameEditAtCopies(document, {Single("generic.donor-edit", 3, kCopies, one, 0.02)});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].candidate.changes.front().after,
            Replace(one, "self.config.param_dtype or torch.float32", "self._dtype"));
  EXPECT_EQ(out[0].candidate.template_id, "generic.donor-edit");
  EXPECT_EQ(out[0].candidate.prior, 0.02);
  EXPECT_EQ(out[0].copies, 2);
  EXPECT_THAT(out[0].candidate.summary, testing::HasSubstr("the same edit at 2 places"));
  EXPECT_EQ(out[1].candidate.changes.front().after, one);  // the single, after its copy
  EXPECT_EQ(out[1].copies, 1);
}

TEST(SameEditAtCopiesTest, AShortLineOrAnInsertionHasNoCopies) {
  const Document document = Parse(kCopies);
  // `return x` repeats by chance, not because the code was copied.
  const std::string short_line = Replace(kCopies, "        return x\n", "        return y\n");
  // An inserted guard edits no line that could repeat.
  const std::string inserted =
      Replace(kCopies, "        return Dtype(", "        if self.config is None:\n            return None\n        return Dtype(");
  const std::vector<ScoredCandidate> out = WithSameEditAtCopies(
      document, {Single("generic.nearest-name", 6, kCopies, short_line), Single("guard.x", 3, kCopies, inserted)});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].candidate.changes.front().after, short_line);
  EXPECT_EQ(out[1].candidate.changes.front().after, inserted);
}

}  // namespace
}  // namespace smallfix
