#ifndef SMALLFIX_ENGINE_REPAIR_LLM_PROPOSER_H_
#define SMALLFIX_ENGINE_REPAIR_LLM_PROPOSER_H_

#include <string>
#include <string_view>
#include <vector>

#include "engine/rank/llm_ranker.h"
#include "engine/repair/candidate_generator.h"

namespace smallfix {

// --llm-propose N: asks the model once for up to N edits at the top sites, each the whole new
// text of the statement at a site or of its enclosing function (models write whole snippets
// far more reliably than diffs). An edit becomes a candidate (template "llm") only if the
// file still parses, it changes at most kMaxChangedLines lines, all inside that statement or
// function, and its syntax tree differs from the unpatched file and from every candidate in
// `existing` (template candidates and earlier edits). Each rejection is a note in the
// session; validation then treats the survivors like any other candidate.
inline constexpr int kMaxProposedSites = 3;
inline constexpr int kMaxChangedLines = 10;  // max(added, removed) of the edit's diff

std::vector<ScoredCandidate> ProposeEdits(LlmSession& session, std::string_view failure,
                                          const std::string& repo_root,
                                          const std::vector<Site>& sites,
                                          const std::vector<ScoredCandidate>& existing,
                                          int max_edits);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_LLM_PROPOSER_H_
