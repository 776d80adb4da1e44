// The within-site order (site_order.h) and the one order of a repair's candidates
// (rank_candidates.h).
#include <string>
#include <vector>

#include "engine/rank/rank_candidates.h"
#include "engine/rank/site_order.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

ScoredCandidate Make(const std::string& id, double symptom, double prior, int lines) {
  ScoredCandidate scored;
  scored.candidate.template_id = id;
  scored.candidate.symptom_score = symptom;
  scored.candidate.prior = prior;
  scored.lines_changed = lines;
  return scored;
}

std::vector<std::string> Order(const std::vector<ScoredCandidate>& candidates) {
  std::vector<std::string> ids;
  for (const ScoredCandidate& c : candidates) ids.push_back(c.candidate.template_id);
  return ids;
}

TEST(SiteOrderTest, MatchedSymptomThenPriorThenSmallestChange) {
  EXPECT_TRUE(BetterAtSite(Make("m", 0.5, 0.0, 9), Make("g", 0.0, 0.9, 1)));
  EXPECT_TRUE(BetterAtSite(Make("m1", 1.0, 0.0, 1), Make("m2", 0.5, 0.9, 1)));
  EXPECT_TRUE(BetterAtSite(Make("a", 0.0, 0.5, 3), Make("b", 0.0, 0.4, 1)));
  EXPECT_TRUE(BetterAtSite(Make("a", 0.0, 0.5, 1), Make("b", 0.0, 0.5, 2)));
  EXPECT_FALSE(BetterAtSite(Make("a", 0.0, 0.5, 1), Make("b", 0.0, 0.5, 1)));
}

TEST(SiteOrderTest, AnUnmatchedTemplateSharesItsPriorAmongItsCandidates) {
  // broad's three matches rank with 0.6, 0.3 and 0.2; narrow keeps 0.4.
  std::vector<ScoredCandidate> here = {Make("broad", 0, 0.6, 1), Make("broad", 0, 0.6, 1),
                                       Make("broad", 0, 0.6, 1), Make("narrow", 0, 0.4, 1),
                                       Make("matched", 1.0, 0.1, 1)};
  OrderAtSite(here);
  EXPECT_EQ(Order(here),
            (std::vector<std::string>{"matched", "broad", "narrow", "broad", "broad"}));
  EXPECT_DOUBLE_EQ(here[1].candidate.prior, 0.6);
  EXPECT_DOUBLE_EQ(here[3].candidate.prior, 0.3);
  EXPECT_DOUBLE_EQ(here[4].candidate.prior, 0.2);
  EXPECT_DOUBLE_EQ(here[0].candidate.prior, 0.1);  // a matched template keeps its prior
}

TEST(RankCandidatesTest, TheHeuristicOrdersWhenNoRankerIsGiven) {
  std::vector<ScoredCandidate> candidates = {Make("weak", 0.0, 0.1, 1), Make("strong", 1.0, 0.5, 1)};
  RankCandidates(nullptr, /*one_fix=*/false, candidates);
  EXPECT_EQ(Order(candidates), (std::vector<std::string>{"strong", "weak"}));
  EXPECT_GT(candidates[0].score, candidates[1].score);
}

TEST(RankCandidatesTest, OneFixPutsCandidatesThatEditMoreLinesFirstThenFewerParts) {
  ScoredCandidate one = Make("one-line", 1.0, 0.9, 1);
  one.sites_covered = 1;
  ScoredCandidate combined = Make("combined", 0.0, 0.1, 4);
  combined.sites_covered = 2;
  combined.parts = 3;
  ScoredCandidate same = Make("same-edit", 0.0, 0.05, 4);
  same.sites_covered = 2;
  same.parts = 1;
  std::vector<ScoredCandidate> candidates = {one, combined, same};
  RankCandidates(nullptr, /*one_fix=*/false, candidates);
  EXPECT_EQ(Order(candidates).front(), "one-line");
  RankCandidates(nullptr, /*one_fix=*/true, candidates);
  EXPECT_EQ(Order(candidates), (std::vector<std::string>{"same-edit", "combined", "one-line"}));
}

}  // namespace
}  // namespace smallfix
