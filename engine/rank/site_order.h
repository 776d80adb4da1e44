#ifndef SMALLFIX_ENGINE_RANK_SITE_ORDER_H_
#define SMALLFIX_ENGINE_RANK_SITE_ORDER_H_

#include <vector>

#include "engine/rank/ranker.h"

namespace smallfix {

// The order of the candidates at one site, which decides which of them the per-site cap keeps
// (before the Ranker orders all sites' candidates together): a matched symptom first (the
// better match first), then the template's prior, then the smallest change.
bool BetterAtSite(const ScoredCandidate& a, const ScoredCandidate& b);

// Orders one site's candidates by BetterAtSite, after sharing each unmatched template's prior
// among its candidates there: a template that answers no symptom at the site may still match it
// many ways (every name, every argument); its prior is the chance that one of them is the fix,
// not each. So its k-th candidate here (k from 0, in the order the template gave them: the
// first match, the nearest answer) ranks with prior / (1 + k), and one broad template cannot
// fill the first places before the others get one. Candidates whose symptom matched keep the
// template's prior. Stable: ties keep the generation order.
void OrderAtSite(std::vector<ScoredCandidate>& here);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_RANK_SITE_ORDER_H_
