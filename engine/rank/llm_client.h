#ifndef SMALLFIX_ENGINE_RANK_LLM_CLIENT_H_
#define SMALLFIX_ENGINE_RANK_LLM_CLIENT_H_

#include <atomic>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/base/http_exchange.h"
#include "engine/rank/llm_cache.h"

namespace smallfix {

// How to reach an OpenAI-compatible chat-completions server (OpenAI, vLLM, llama.cpp's
// server, Ollama, ...).
struct LlmOptions {
  std::string url;    // the server's base: "http://127.0.0.1:8000" (a trailing /v1 is accepted)
  std::string model;  // "" asks the server: the first entry of GET /v1/models
  double timeout_seconds =
      60;                 // per request, from sending to the last byte; connect: at most 10 s of it
  std::string cache_dir;  // "" keeps nothing on disk
  // Sent as "Authorization: Bearer ..." only; never printed, logged, cached or reported.
  // ApiKeyFromEnvironment() reads it.
  std::string api_key;
  int seed = 7;          // with temperature 0: repeatable where the server supports it
  int max_attempts = 4;  // per request, on 429 and 5xx
  double max_retry_wait_seconds = 20;  // a longer Retry-After gives up instead of waiting
  double first_backoff_seconds = 0.5;  // doubled per retry, with jitter, without Retry-After
  size_t max_response_bytes = 1 << 20;
  const std::atomic<bool>* cancel = nullptr;
};

// An http:// or https:// base URL without credentials in it (they would show in notes and
// errors; the key belongs in the environment). The error names the flag as `flag`.
absl::Status CheckLlmUrl(std::string_view url, std::string_view flag);

// SMALLFIX_LLM_API_KEY, else OPENAI_API_KEY, else "" (local servers need none).
std::string ApiKeyFromEnvironment();

// One chat exchange: a system and a user message, and the JSON object the answer must be.
struct ChatRequest {
  std::string system;
  std::string user;
  std::string schema_name;  // names `schema` in response_format
  nlohmann::json schema;    // JSON Schema of the answer object
  int max_tokens = 1024;
};

// What the client has spent; printed in the report's stats.
struct LlmStats {
  int calls = 0;       // chat requests sent (retries included)
  int cache_hits = 0;  // answers read from the cache instead
  int retries = 0;
  long prompt_tokens = 0;
  long completion_tokens = 0;
};

// Speaks POST {url}/v1/chat/completions with temperature 0 and a seed, asking for the answer
// as JSON: with response_format json_schema first; a server that rejects that field (400/422)
// is asked again, and from then on, with the schema in the prompt and the JSON taken out of
// the text. Retries 429 and 5xx with backoff, honouring Retry-After up to a bound. Not
// thread-safe: one repair uses one client from one thread.
class LlmClient {
 public:
  explicit LlmClient(LlmOptions options);

  // The answer object, or an error that says what went wrong (unreachable, timed out, HTTP
  // status, answer not JSON, truncated), with the API key scrubbed from any text the server sent.
  absl::StatusOr<nlohmann::json> Chat(const ChatRequest& request);

  const LlmStats& stats() const { return stats_; }
  // The model asked ("" until the first Chat resolves it).
  const std::string& model() const { return model_; }
  // What the client had to work around (a rejected response_format, retries); for the report.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  absl::StatusOr<std::string> ResolveModel();
  // One request (GET without a body, else POST), with retries on 429/5xx; the response of
  // any other status.
  absl::StatusOr<HttpResponse> Send(const std::string& path, const std::string& body);
  std::string Scrub(std::string text) const;
  absl::StatusOr<HttpResponse> SendChat(const ChatRequest& chat, nlohmann::json& body);
  absl::StatusOr<std::string> ReplyContent(const HttpResponse& response, int max_tokens);
  std::string Endpoint(const std::string& path) const;
  std::vector<std::string> Headers() const;

  LlmOptions options_;
  LlmCache cache_;
  std::string base_;
  std::string model_;
  bool structured_ = true;  // response_format accepted (so far)
  bool seeded_ = true;      // seed accepted (so far)
  LlmStats stats_;
  std::vector<std::string> notes_;
};

// The first JSON object in a model's text: the whole text, else a ```json fence, else the
// first balanced {...} that parses. nullopt when there is none.
std::optional<nlohmann::json> ExtractJsonObject(std::string_view text);

// `object[key]` when `object` is an object holding a string there, else "": a model's or a
// server's answer of the wrong shape reads as absent, never as an exception.
std::string JsonString(const nlohmann::json& object, const char* key);

// What an OpenAI chat completion's body says: the first choice's text, whether it was cut at
// max_tokens, and the token counts (0 when absent or of the wrong type).
struct ChatReply {
  std::string content;
  bool truncated = false;
  long prompt_tokens = 0;
  long completion_tokens = 0;
};
// InvalidArgument when the body is not a chat completion (no "choices" list of objects).
absl::StatusOr<ChatReply> ParseChatReply(std::string_view body);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_RANK_LLM_CLIENT_H_
