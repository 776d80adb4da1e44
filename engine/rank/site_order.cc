#include "engine/rank/site_order.h"

#include <algorithm>
#include <map>
#include <string>

namespace smallfix {
namespace {

void ShareUnmatchedPriors(std::vector<ScoredCandidate>& here) {
  std::map<std::string, int> seen_of_template;
  for (ScoredCandidate& scored : here) {
    Candidate& candidate = scored.candidate;
    if (candidate.symptom_score > 0) continue;
    const int k = seen_of_template[candidate.template_id]++;
    candidate.prior /= 1.0 + k;
  }
}

}  // namespace

bool BetterAtSite(const ScoredCandidate& a, const ScoredCandidate& b) {
  const bool a_matched = a.candidate.symptom_score > 0, b_matched = b.candidate.symptom_score > 0;
  if (a_matched != b_matched) return a_matched;
  if (a.candidate.symptom_score != b.candidate.symptom_score)
    return a.candidate.symptom_score > b.candidate.symptom_score;
  if (a.candidate.prior != b.candidate.prior) return a.candidate.prior > b.candidate.prior;
  return a.lines_changed < b.lines_changed;
}

void OrderAtSite(std::vector<ScoredCandidate>& here) {
  ShareUnmatchedPriors(here);
  std::stable_sort(here.begin(), here.end(), BetterAtSite);
}

}  // namespace smallfix
