#ifndef SMALLFIX_ENGINE_RANK_LLM_RANKER_H_
#define SMALLFIX_ENGINE_RANK_LLM_RANKER_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/rank/llm_client.h"
#include "engine/rank/ranker.h"

namespace smallfix {

// What one repair's LLM use leaves for the report: the client (its stats) and notes saying
// what the model did or why it was not used.
struct LlmSession {
  explicit LlmSession(LlmOptions options) : client(std::move(options)) {}
  LlmClient client;
  std::vector<std::string> notes;
  // The candidates' diffs in the heuristic's order, before the model spoke: what `bench --llm`
  // compares the model's order with.
  std::vector<std::string> heuristic_order;
  // Progress lines for stderr before each request (a slow model should not look like a hang).
  std::function<void(const std::string&)> progress;
  // Every note, the client's (retries, fallbacks) first.
  std::vector<std::string> AllNotes() const;
};

// Ranks with the heuristic, then asks the model once to order the best `kMaxRanked`
// candidates (listwise: the failure, the code at each site, every candidate's diff with an
// id). The final score mixes the two: 0.4 x heuristic + 0.6 x (1 - position / listed), 0
// for what the model did not list, so the model decides among close calls and the heuristic
// keeps what the model left out in its own order. Any failure (unreachable, timed out, not JSON, an
// unknown or repeated id) keeps the heuristic order and says why in the session's notes. Validation
// still decides what is plausible: ranking only changes what is tried first.
class LlmRanker : public Ranker {
 public:
  static constexpr size_t kMaxRanked = 20;

  // `failure` is the text the repair started from (the issue, the log, or --symptom).
  LlmRanker(LlmSession* session, std::string failure)
      : session_(session), failure_(std::move(failure)) {}
  void Rank(std::vector<ScoredCandidate>& candidates) const override;

 private:
  LlmSession* session_;
  std::string failure_;
};

// The model's order as indices into `ids`: only known ids, each at most once, at least one.
absl::StatusOr<std::vector<int>> ParseOrder(const nlohmann::json& answer,
                                            const std::vector<std::string>& ids);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_RANK_LLM_RANKER_H_
