#include "engine/rank/heuristic_ranker.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace smallfix {
namespace {

ScoredCandidate Make(const std::string& id, double site, double symptom, double prior, int lines) {
  ScoredCandidate scored;
  scored.candidate.template_id = id;
  scored.candidate.symptom_score = symptom;
  scored.candidate.prior = prior;
  scored.site_score = site;
  scored.lines_changed = lines;
  return scored;
}

std::vector<std::string> Order(const std::vector<ScoredCandidate>& candidates) {
  std::vector<std::string> ids;
  for (const ScoredCandidate& c : candidates) ids.push_back(c.candidate.template_id);
  return ids;
}

// The same edit made in two copies of a line is one edit: it ties with the edit of one copy,
// and ranked first (given first) it stays first.
TEST(HeuristicRankerTest, AnEditInEachCopyIsTheSizeOfOne) {
  ScoredCandidate both = Make("both", 1.0, 0.0, 0.02, 4);
  both.copies = 2;
  const ScoredCandidate one = Make("one", 1.0, 0.0, 0.02, 2);
  EXPECT_DOUBLE_EQ(HeuristicRanker::Score(both), HeuristicRanker::Score(one));
  std::vector<ScoredCandidate> candidates = {both, one, Make("three-lines", 1.0, 0.0, 0.02, 4)};
  HeuristicRanker().Rank(candidates);
  EXPECT_EQ(Order(candidates), (std::vector<std::string>{"both", "one", "three-lines"}));
}

TEST(HeuristicRankerTest, ScoreWeighsSymptomPriorAndSize) {
  // One changed line: size term 1.
  EXPECT_DOUBLE_EQ(HeuristicRanker::Score(Make("a", 1.0, 1.0, 1.0, 1)), 1.0);
  EXPECT_DOUBLE_EQ(HeuristicRanker::Score(Make("a", 1.0, 1.0, 0.0, 1)), 0.7);
  EXPECT_DOUBLE_EQ(HeuristicRanker::Score(Make("a", 0.5, 1.0, 0.0, 1)), 0.35);
  // Eleven lines: size term 1 / (1 + 0.1 * 10) = 0.5.
  EXPECT_DOUBLE_EQ(HeuristicRanker::Score(Make("a", 1.0, 0.0, 0.0, 11)), 0.1);
}

TEST(HeuristicRankerTest, RanksBestFirstAndSetsScores) {
  std::vector<ScoredCandidate> candidates = {Make("weak", 1.0, 0.0, 0.2, 1), Make("strong", 1.0, 1.0, 0.5, 1),
                                             Make("far", 0.2, 1.0, 0.5, 1)};
  HeuristicRanker().Rank(candidates);
  EXPECT_EQ(Order(candidates), (std::vector<std::string>{"strong", "weak", "far"}));
  EXPECT_GT(candidates[0].score, candidates[1].score);
}

TEST(HeuristicRankerTest, SmallerPatchWinsOtherwiseEqual) {
  std::vector<ScoredCandidate> candidates = {Make("big", 1.0, 0.5, 0.5, 6), Make("small", 1.0, 0.5, 0.5, 1)};
  HeuristicRanker().Rank(candidates);
  EXPECT_EQ(Order(candidates), (std::vector<std::string>{"small", "big"}));
}

TEST(HeuristicRankerTest, TiesKeepGenerationOrder) {
  std::vector<ScoredCandidate> candidates = {Make("first", 1.0, 0.5, 0.5, 2), Make("second", 1.0, 0.5, 0.5, 2),
                                             Make("third", 1.0, 0.5, 0.5, 2)};
  HeuristicRanker().Rank(candidates);
  EXPECT_EQ(Order(candidates), (std::vector<std::string>{"first", "second", "third"}));
}

// The seam: a request's ranker is any Ranker; the pipeline uses it through this interface.
TEST(HeuristicRankerTest, IsARanker) {
  const HeuristicRanker heuristic;
  const Ranker& ranker = heuristic;
  std::vector<ScoredCandidate> candidates = {Make("b", 1.0, 0.0, 0.0, 1), Make("a", 1.0, 1.0, 0.0, 1)};
  ranker.Rank(candidates);
  EXPECT_EQ(Order(candidates), (std::vector<std::string>{"a", "b"}));
}

}  // namespace
}  // namespace smallfix
