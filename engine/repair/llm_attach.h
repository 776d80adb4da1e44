#ifndef SMALLFIX_ENGINE_REPAIR_LLM_ATTACH_H_
#define SMALLFIX_ENGINE_REPAIR_LLM_ATTACH_H_

#include <atomic>
#include <memory>
#include <string>

#include "engine/rank/llm_ranker.h"
#include "engine/repair/pipeline.h"

namespace smallfix {

// A model attached to one repair request: it ranks the request's candidates and, with
// `flags.propose` > 0, proposes edits at its sites. The request points into this object
// (ranker, the propose callback's session), so it must outlive RunRepair(request).
class AttachedLlm {
 public:
  // `failure` is what the model is shown as the failure: a log, an issue, a symptom line, or
  // nothing (realfix fixes without a symptom). The API key comes from the environment.
  AttachedLlm(const LlmFlags& flags, std::string failure, RepairRequest& request,
              const std::atomic<bool>* cancel);

  LlmSession& session() { return *session_; }
  // The model's notes and spending, added to `report`: its notes (then one line of what it
  // cost) in `report.notes`, the rest in `report.llm`.
  void AddToReport(RepairReport& report) const;

 private:
  std::unique_ptr<LlmSession> session_;  // heap: the propose callback keeps its address
  std::unique_ptr<LlmRanker> ranker_;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_LLM_ATTACH_H_
