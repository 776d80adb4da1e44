#ifndef SMALLFIX_ENGINE_RANK_LLM_CACHE_H_
#define SMALLFIX_ENGINE_RANK_LLM_CACHE_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace smallfix {

// The LLM's answers on disk, one JSON file per request, named by a hash of the server URL
// and the request body (model, messages, schema, temperature, seed; never the API key), so
// that a bench run repeated against the same server is reproducible and free. Each file
// holds the request too: a hash collision reads as a miss, never as a wrong answer.
// Writes go through a temporary file and a rename, so parallel runs never read half a file.
class LlmCache {
 public:
  // An empty `dir` is a cache that holds nothing.
  explicit LlmCache(std::string dir) : dir_(std::move(dir)) {}

  // $XDG_CACHE_HOME/smallfix/llm, else ~/.cache/smallfix/llm; "" without either variable.
  static std::string DefaultDir();

  std::optional<nlohmann::json> Get(const std::string& url, const nlohmann::json& request) const;
  // Best effort: a cache that cannot be written only costs a later call.
  void Put(const std::string& url, const nlohmann::json& request,
           const nlohmann::json& answer) const;

  const std::string& dir() const { return dir_; }

 private:
  std::string PathFor(const std::string& url, const nlohmann::json& request) const;
  std::string dir_;
};

// 128 bits of FNV-1a over `text` as 32 hex digits: stable across runs and machines.
std::string StableHash(std::string_view text);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_RANK_LLM_CACHE_H_
