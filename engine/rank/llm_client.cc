#include "engine/rank/llm_client.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "engine/base/concat.h"

namespace smallfix {
namespace {

bool Retryable(long status) { return status == 429 || (status >= 500 && status <= 599); }

}  // namespace

absl::Status CheckLlmUrl(std::string_view url, std::string_view flag) {
  const size_t scheme = url.find("://");
  const std::string_view name = url.substr(0, scheme == std::string_view::npos ? 0 : scheme);
  if (name != "http" && name != "https") {
    return absl::InvalidArgumentError(
        Concat(flag, " ", url, ": expected an http:// or https:// URL"));
  }
  const std::string_view authority =
      url.substr(scheme + 3, url.find('/', scheme + 3) - (scheme + 3));
  if (authority.find('@') != std::string_view::npos) {
    return absl::InvalidArgumentError(Concat(
        flag,
        ": no credentials in the URL; put the key in SMALLFIX_LLM_API_KEY (or OPENAI_API_KEY)"));
  }
  if (authority.empty())
    return absl::InvalidArgumentError(Concat(flag, " ", url, ": the URL names no host"));
  return absl::OkStatus();
}

std::string ApiKeyFromEnvironment() {
  for (const char* name : {"SMALLFIX_LLM_API_KEY", "OPENAI_API_KEY"}) {
    if (const char* value = std::getenv(name); value != nullptr && value[0] != '\0') return value;
  }
  return "";
}

std::optional<nlohmann::json> ExtractJsonObject(std::string_view text) {
  auto parse = [](std::string_view candidate) -> std::optional<nlohmann::json> {
    nlohmann::json value = nlohmann::json::parse(candidate, nullptr, /*allow_exceptions=*/false);
    if (value.is_object()) return value;
    return std::nullopt;
  };
  if (auto whole = parse(text)) return whole;
  if (size_t fence = text.find("```"); fence != std::string_view::npos) {
    size_t start = text.find('\n', fence);
    size_t end = start == std::string_view::npos ? start : text.find("```", start);
    if (end != std::string_view::npos) {
      if (auto fenced = parse(text.substr(start + 1, end - start - 1))) return fenced;
    }
  }
  // The first '{' whose balanced span parses; strings are skipped so braces in them do not count.
  for (size_t open = text.find('{'); open != std::string_view::npos;
       open = text.find('{', open + 1)) {
    int depth = 0;
    bool in_string = false;
    for (size_t i = open; i < text.size(); ++i) {
      const char c = text[i];
      if (in_string) {
        if (c == '\\')
          ++i;
        else if (c == '"')
          in_string = false;
      } else if (c == '"') {
        in_string = true;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}' && --depth == 0) {
        if (auto span = parse(text.substr(open, i - open + 1))) return span;
        break;
      }
    }
  }
  return std::nullopt;
}

LlmClient::LlmClient(LlmOptions options)
    : options_(std::move(options)), cache_(options_.cache_dir) {
  base_ = options_.url;
  while (!base_.empty() && base_.back() == '/') base_.pop_back();
  if (absl::EndsWith(base_, "/v1")) base_.resize(base_.size() - 3);
  model_ = options_.model;
}

std::string LlmClient::Endpoint(const std::string& path) const { return Concat(base_, path); }

std::vector<std::string> LlmClient::Headers() const {
  std::vector<std::string> headers = {"Content-Type: application/json", "Accept: application/json"};
  if (!options_.api_key.empty())
    headers.push_back(Concat("Authorization: Bearer ", options_.api_key));
  return headers;
}

std::string LlmClient::Scrub(std::string text) const {
  // A server (or a proxy) may echo the request's headers back in an error page.
  if (!options_.api_key.empty()) absl::StrReplaceAll({{options_.api_key, "[api key]"}}, &text);
  return text;
}

absl::StatusOr<HttpResponse> LlmClient::Send(const std::string& path, const std::string& body) {
  HttpRequest request;
  request.method = body.empty() ? "GET" : "POST";
  request.url = Endpoint(path);
  request.headers = Headers();
  request.body = body;
  request.total_timeout_seconds = options_.timeout_seconds;
  request.connect_timeout_seconds = std::min(10.0, options_.timeout_seconds);
  request.max_response_bytes = options_.max_response_bytes;
  request.cancel = options_.cancel;
  std::mt19937 jitter(std::random_device{}());
  double backoff = options_.first_backoff_seconds;
  for (int attempt = 1;; ++attempt) {
    if (request.method == "POST") ++stats_.calls;
    absl::StatusOr<HttpResponse> response = HttpExchange(request);
    // A hung or unreachable server is not retried: the time limit is the user's whole budget.
    if (!response.ok())
      return absl::Status(response.status().code(),
                          Scrub(std::string(response.status().message())));
    if (!Retryable(response->status) || attempt >= options_.max_attempts) return response;
    double wait = backoff * std::uniform_real_distribution<double>(0.8, 1.2)(jitter);
    if (response->retry_after_seconds >= 0) {
      if (response->retry_after_seconds > options_.max_retry_wait_seconds) {
        return absl::UnavailableError(absl::StrFormat(
            "%s: HTTP %d with Retry-After %g s, longer than the %g s smallfix waits", request.url,
            response->status, response->retry_after_seconds, options_.max_retry_wait_seconds));
      }
      wait = response->retry_after_seconds;
    }
    notes_.push_back(absl::StrFormat("llm: HTTP %d from %s; retried after %.1f s", response->status,
                                     path, wait));
    ++stats_.retries;
    SleepUnlessCancelled(wait, options_.cancel);
    if (options_.cancel != nullptr && options_.cancel->load()) {
      return absl::CancelledError(Concat(request.url, ": interrupted"));
    }
    backoff *= 2;
  }
}

absl::StatusOr<std::string> LlmClient::ResolveModel() {
  if (!model_.empty()) return model_;
  absl::StatusOr<HttpResponse> response = Send("/v1/models", "");
  if (!response.ok()) return response.status();
  if (response->status != 200) {
    return absl::UnavailableError(absl::StrFormat("%s: HTTP %d: %s; give --llm-model",
                                                  Endpoint("/v1/models"), response->status,
                                                  Scrub(QuoteBody(response->body))));
  }
  nlohmann::json models = nlohmann::json::parse(response->body, nullptr, false);
  if (!models.is_object() || !models.contains("data") || !models["data"].is_array() ||
      models["data"].empty() || !models["data"][0].is_object() ||
      !models["data"][0].contains("id") || !models["data"][0]["id"].is_string()) {
    return absl::UnavailableError(
        Concat(Endpoint("/v1/models"),
               " lists no model (expected {\"data\": [{\"id\": ...}]}); give --llm-model"));
  }
  model_ = models["data"][0]["id"].get<std::string>();
  return model_;
}

std::string JsonString(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return "";
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

absl::StatusOr<ChatReply> ParseChatReply(std::string_view body) {
  const nlohmann::json reply = nlohmann::json::parse(body, nullptr, false);
  if (!reply.is_object() || !reply.contains("choices") || !reply["choices"].is_array() ||
      reply["choices"].empty() || !reply["choices"][0].is_object()) {
    return absl::InvalidArgumentError("the server's reply is not a chat completion");
  }
  ChatReply out;
  const auto usage = reply.find("usage");
  if (usage != reply.end() && usage->is_object()) {
    for (auto [key, count] : {std::pair{"prompt_tokens", &out.prompt_tokens},
                              std::pair{"completion_tokens", &out.completion_tokens}}) {
      const auto it = usage->find(key);
      if (it != usage->end() && it->is_number_integer()) *count = it->get<long>();
    }
  }
  const nlohmann::json& choice = reply["choices"][0];
  out.truncated = JsonString(choice, "finish_reason") == "length";
  const auto message = choice.find("message");
  if (message != choice.end()) out.content = JsonString(*message, "content");
  return out;
}

// Sends the chat request `body` (as Chat built it), leaving out what this server has refused
// before: response_format (the schema then goes into the prompt and the JSON is taken out of
// the text), then seed. A refusal (HTTP 400 or 422) of either is noted and asked again without it.
absl::StatusOr<HttpResponse> LlmClient::SendChat(const ChatRequest& chat, nlohmann::json& body) {
  const std::string schema_text = chat.schema.dump();
  auto send = [&] { return Send("/v1/chat/completions", body.dump()); };
  auto degrade = [&] {
    if (!structured_ && body.contains("response_format")) {
      body.erase("response_format");
      body["messages"][1]["content"] = Concat(
          chat.user, "\n\nAnswer with one JSON object only, no prose, matching this JSON Schema:\n",
          schema_text);
    }
    if (!seeded_) body.erase("seed");
  };
  auto refused = [](const absl::StatusOr<HttpResponse>& r) {
    return r.ok() && (r->status == 400 || r->status == 422);
  };
  degrade();
  absl::StatusOr<HttpResponse> response = send();
  if (refused(response) && structured_) {
    structured_ = false;
    notes_.push_back(
        absl::StrFormat("llm: the server refused response_format (HTTP %d: %s); the JSON is asked "
                        "for in the prompt instead",
                        response->status, Scrub(QuoteBody(response->body))));
    degrade();
    response = send();
  }
  if (refused(response) && seeded_) {
    // Some providers reject `seed` too; temperature 0 is then the only determinism left.
    seeded_ = false;
    notes_.push_back(absl::StrFormat(
        "llm: the server refused the request (HTTP %d: %s); asked again without seed",
        response->status, Scrub(QuoteBody(response->body))));
    degrade();
    response = send();
  }
  return response;
}

// The text of a chat completion's first choice, scrubbed of the key; its token counts go into
// the stats. Errors: not a chat completion, or cut at max_tokens.
absl::StatusOr<std::string> LlmClient::ReplyContent(const HttpResponse& response, int max_tokens) {
  absl::StatusOr<ChatReply> reply = ParseChatReply(response.body);
  if (!reply.ok()) {
    return absl::DataLossError(
        Concat(reply.status().message(), ": ", Scrub(QuoteBody(response.body))));
  }
  stats_.prompt_tokens += reply->prompt_tokens;
  stats_.completion_tokens += reply->completion_tokens;
  if (reply->truncated) {
    return absl::DataLossError(
        absl::StrFormat("the answer was cut at max_tokens (%d): truncated JSON", max_tokens));
  }
  // A server that echoes the key into its answer must not carry it into a patch or the cache.
  return Scrub(std::move(reply->content));
}

absl::StatusOr<nlohmann::json> LlmClient::Chat(const ChatRequest& chat) {
  absl::StatusOr<std::string> model = ResolveModel();
  if (!model.ok()) return model.status();
  nlohmann::json body = {
      {"model", *model},
      {"messages",
       {{{"role", "system"}, {"content", chat.system}},
        {{"role", "user"}, {"content", chat.user}}}},
      {"temperature", 0},
      {"seed", options_.seed},
      {"max_tokens", chat.max_tokens},
      {"stream", false},
      {"response_format",
       {{"type", "json_schema"},
        {"json_schema", {{"name", chat.schema_name}, {"schema", chat.schema}, {"strict", true}}}}}};
  // The cache key is the request as first asked, whatever fallback answered it.
  if (std::optional<nlohmann::json> cached = cache_.Get(base_, body)) {
    if (std::optional<nlohmann::json> answer = ExtractJsonObject(JsonString(*cached, "content"))) {
      ++stats_.cache_hits;
      return *answer;
    }
  }
  const nlohmann::json key = body;
  absl::StatusOr<HttpResponse> response = SendChat(chat, body);
  if (!response.ok()) return response.status();
  if (response->status != 200) {
    return absl::UnavailableError(
        absl::StrFormat("%s: HTTP %d: %s", Endpoint("/v1/chat/completions"), response->status,
                        Scrub(QuoteBody(response->body))));
  }
  absl::StatusOr<std::string> content = ReplyContent(*response, chat.max_tokens);
  if (!content.ok()) return content.status();
  std::optional<nlohmann::json> answer = ExtractJsonObject(*content);
  if (!answer) {
    return absl::DataLossError(
        Concat("the answer holds no JSON object: \"", Scrub(QuoteBody(*content)), "\""));
  }
  cache_.Put(base_, key, {{"content", *content}});
  return *answer;
}

}  // namespace smallfix
