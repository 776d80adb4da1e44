#include "engine/repair/llm_attach.h"

#include <utility>

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
                       n = flags.propose](const std::vector<RepairSite>& sites,
                                          const std::vector<ScoredCandidate>& existing) {
      return ProposeEdits(*session, failure, repo, sites, existing, n);
    };
  }
}

}  // namespace smallfix
