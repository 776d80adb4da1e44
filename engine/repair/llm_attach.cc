#include "engine/repair/llm_attach.h"

#include <utility>

#include "absl/strings/str_format.h"
#include "engine/repair/llm_proposer.h"

namespace smallfix {

AttachedLlm::AttachedLlm(const LlmFlags& flags, std::string failure, RepairRequest& request,
                         const std::atomic<bool>* cancel) {
  LlmOptions options;
  options.url = flags.url;
  options.model = flags.model;
  options.timeout_seconds = flags.timeout_seconds;
  options.cache_dir = flags.cache;
  options.api_key = ApiKeyFromEnvironment();
  options.cancel = cancel;
  session_ = std::make_unique<LlmSession>(std::move(options));
  session_->progress = request.progress;
  ranker_ = std::make_unique<LlmRanker>(session_.get(), failure);
  request.ranker = ranker_.get();
  if (flags.propose > 0) {
    request.propose = [session = session_.get(), failure = std::move(failure), repo = request.repo,
                       n = flags.propose](const std::vector<Site>& sites,
                                          const std::vector<ScoredCandidate>& existing) {
      return ProposeEdits(*session, failure, repo, sites, existing, n);
    };
  }
}

void AttachedLlm::AddToReport(RepairReport& report) const {
  RepairReport::Llm llm{session_->client.model(), session_->client.stats(), session_->AllNotes(),
                        session_->heuristic_order};
  for (const std::string& note : llm.notes) report.notes.push_back(note);
  report.notes.push_back(absl::StrFormat(
      "llm: %d call(s), %d answer(s) from the cache, %d prompt and %d completion tokens",
      llm.stats.calls, llm.stats.cache_hits, llm.stats.prompt_tokens, llm.stats.completion_tokens));
  report.llm = std::move(llm);
}

}  // namespace smallfix
