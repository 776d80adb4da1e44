#ifndef SMALLFIX_ENGINE_DOCTOR_LLM_CHECK_H_
#define SMALLFIX_ENGINE_DOCTOR_LLM_CHECK_H_

#include <string>

#include "engine/doctor/check.h"

namespace smallfix::doctor {

// The OpenAI-compatible server `--llm URL` names: it answers GET /v1/models within
// `timeout_seconds` and lists `model` when one is given (else any). The key, when the
// environment has one (SMALLFIX_LLM_API_KEY, OPENAI_API_KEY), is sent and never shown.
Check LlmCheck(const std::string& url, const std::string& model, double timeout_seconds);

}  // namespace smallfix::doctor

#endif  // SMALLFIX_ENGINE_DOCTOR_LLM_CHECK_H_
