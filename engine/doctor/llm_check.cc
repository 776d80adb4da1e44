#include "engine/doctor/llm_check.h"

#include <nlohmann/json.hpp>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/http_exchange.h"
#include "engine/rank/llm_client.h"

namespace smallfix::doctor {

Check LlmCheck(const std::string& url, const std::string& model, double timeout_seconds) {
  const std::string start = "start the server, or fix --llm (e.g. vllm serve MODEL --port 8000)";
  if (absl::Status valid = CheckLlmUrl(url, "--llm"); !valid.ok())
    return Missing("llm", std::string(valid.message()), "give --llm http://HOST:PORT");
  std::string base = url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  if (absl::EndsWith(base, "/v1")) base.resize(base.size() - 3);
  HttpRequest request;
  request.url = Concat(base, "/v1/models");
  request.headers = {"Accept: application/json"};
  const std::string key = ApiKeyFromEnvironment();
  if (!key.empty()) request.headers.push_back(Concat("Authorization: Bearer ", key));
  request.total_timeout_seconds = timeout_seconds;
  request.connect_timeout_seconds = std::min(10.0, timeout_seconds);
  absl::StatusOr<HttpResponse> response = HttpExchange(request);
  if (!response.ok()) return Missing("llm", std::string(response.status().message()), start);
  if (response->status != 200) {
    return Missing("llm", absl::StrFormat("%s: HTTP %d", request.url, response->status),
                   response->status == 401 || response->status == 403
                       ? "set SMALLFIX_LLM_API_KEY to a key the server accepts"
                       : start);
  }
  const nlohmann::json answer = nlohmann::json::parse(response->body, nullptr, false);
  std::vector<std::string> ids;
  if (answer.is_object() && answer.contains("data") && answer["data"].is_array()) {
    for (const nlohmann::json& entry : answer["data"]) {
      if (entry.is_object() && entry.contains("id") && entry["id"].is_string())
        ids.push_back(entry["id"].get<std::string>());
    }
  }
  if (ids.empty() && model.empty()) {
    return Missing("llm", Concat(request.url, " lists no model"), "give --llm-model NAME");
  }
  if (!model.empty() && !ids.empty() && std::find(ids.begin(), ids.end(), model) == ids.end()) {
    return Missing("llm",
                   Concat(request.url, " does not list ", model, " (it lists ", ids[0],
                          ids.size() > 1 ? absl::StrFormat(" and %d more)", ids.size() - 1)
                                         : std::string(")")),
                   "--llm-model one of the listed models, or load it on the server");
  }
  return Ok("llm", Concat(base, ": model ", model.empty() ? ids[0] : model,
                          key.empty() ? "" : " (with the API key from the environment)"));
}

}  // namespace smallfix::doctor
