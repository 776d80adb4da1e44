#ifndef SMALLFIX_ENGINE_RANK_LLM_PROMPT_H_
#define SMALLFIX_ENGINE_RANK_LLM_PROMPT_H_

#include <string>
#include <string_view>
#include <vector>

#include "engine/rank/llm_client.h"
#include "engine/rank/ranker.h"

namespace smallfix {

// The prompts smallfix sends, and nothing else: the failure text, the code around each site,
// and the candidates' diffs. docs/llm.md ("What is sent") quotes this file's promise.

// A candidate as the model sees it: an id ("c1") and the candidate.
struct PromptCandidate {
  std::string id;
  const ScoredCandidate* candidate = nullptr;
};

// Listwise ranking: the model answers {"order": [ids, best first]}.
ChatRequest RankPrompt(std::string_view failure, const std::vector<PromptCandidate>& candidates);

// A site the model may rewrite: the enclosing function (or statement, at module level) with
// line numbers, and the statement at the site.
struct PromptSite {
  std::string id;  // "s1"
  std::string file;
  int line = 0;               // 1-based
  std::string function_text;  // numbered lines
  std::string statement_text;
  bool in_function = false;
};

// Proposal: the model answers {"edits": [{"site", "target": "statement"|"function", "code",
// "summary"}]}, at most `max_edits` of them.
ChatRequest ProposePrompt(std::string_view failure, const std::vector<PromptSite>& sites,
                          int max_edits);

// The failure as sent: long texts keep their head (the report) and their tail (the traceback's
// end).
std::string FailureExcerpt(std::string_view failure);

// Lines [first, last] (1-based) of `text`, each prefixed with its number.
std::string NumberedLines(std::string_view text, int first, int last);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_RANK_LLM_PROMPT_H_
