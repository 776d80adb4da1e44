#include "engine/rank/llm_ranker.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/rank/heuristic_ranker.h"
#include "engine/rank/llm_cache.h"
#include "engine/rank/llm_prompt.h"

namespace smallfix {

constexpr double kModelWeight = 0.6;

std::vector<std::string> LlmSession::AllNotes() const {
  std::vector<std::string> all = client.notes();
  all.insert(all.end(), notes.begin(), notes.end());
  return all;
}

absl::StatusOr<std::vector<int>> ParseOrder(const nlohmann::json& answer,
                                            const std::vector<std::string>& ids) {
  if (!answer.is_object() || !answer.contains("order") || !answer["order"].is_array()) {
    return absl::InvalidArgumentError(
        Concat("the answer has no \"order\" list: ", answer.dump().substr(0, 200)));
  }
  std::map<std::string, int> index;
  for (size_t i = 0; i < ids.size(); ++i) index[ids[i]] = static_cast<int>(i);
  std::vector<int> order;
  std::vector<bool> seen(ids.size(), false);
  for (const nlohmann::json& item : answer["order"]) {
    if (!item.is_string())
      return absl::InvalidArgumentError(Concat("the order holds a non-id: ", item.dump()));
    auto it = index.find(item.get<std::string>());
    if (it == index.end()) {
      return absl::InvalidArgumentError(
          Concat("the order names an unknown id \"", item.get<std::string>().substr(0, 40), "\""));
    }
    if (seen[it->second]) {
      return absl::InvalidArgumentError(Concat("the order names \"", it->first, "\" twice"));
    }
    seen[it->second] = true;
    order.push_back(it->second);
  }
  if (order.empty()) return absl::InvalidArgumentError("the order is empty");
  return order;
}

void LlmRanker::Rank(std::vector<ScoredCandidate>& candidates) const {
  HeuristicRanker().Rank(candidates);
  session_->heuristic_order.clear();
  for (const ScoredCandidate& candidate : candidates)
    session_->heuristic_order.push_back(candidate.diff);
  const size_t n = std::min(candidates.size(), kMaxRanked);
  if (n < 2) return;  // nothing to order
  // Shown to the model in an order of their own (by a hash of the diff), not the heuristic's:
  // models favour what comes first, and the heuristic's opinion should not leak in that way.
  std::vector<size_t> shown(n);
  for (size_t i = 0; i < n; ++i) shown[i] = i;
  std::stable_sort(shown.begin(), shown.end(), [&](size_t a, size_t b) {
    return StableHash(candidates[a].diff) < StableHash(candidates[b].diff);
  });
  std::vector<PromptCandidate> prompt;
  std::vector<std::string> ids;
  for (size_t k = 0; k < n; ++k) {
    ids.push_back(absl::StrFormat("c%d", k + 1));
    prompt.push_back({ids.back(), &candidates[shown[k]]});
  }
  if (session_->progress)
    session_->progress(absl::StrFormat("asking the LLM to order %d candidates", n));
  absl::StatusOr<nlohmann::json> answer = session_->client.Chat(RankPrompt(failure_, prompt));
  absl::StatusOr<std::vector<int>> order =
      answer.ok() ? ParseOrder(*answer, ids) : absl::StatusOr<std::vector<int>>(answer.status());
  if (!order.ok()) {
    session_->notes.push_back(
        Concat("llm ranking not used (", order.status().message(), "); heuristic order kept"));
    return;
  }
  // What the model left out, or never saw (past kMaxRanked), scores 0 from it: every score
  // is then on one scale, and the order of the list is the order of the scores.
  std::vector<double> model_score(candidates.size(), 0);
  for (size_t position = 0; position < order->size(); ++position) {
    model_score[shown[(*order)[position]]] = 1.0 - static_cast<double>(position) / order->size();
  }
  for (size_t i = 0; i < candidates.size(); ++i) {
    candidates[i].score = (1 - kModelWeight) * candidates[i].score + kModelWeight * model_score[i];
  }
  std::stable_sort(
      candidates.begin(), candidates.end(),
      [](const ScoredCandidate& a, const ScoredCandidate& b) { return a.score > b.score; });
  session_->notes.push_back(absl::StrFormat(
      "llm ranking: %s ordered %d of the top %d candidates; first now %s", session_->client.model(),
      order->size(), n, candidates.front().candidate.template_id));
}

}  // namespace smallfix
