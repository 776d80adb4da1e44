#include "engine/cli/llm_flags.h"

#include "engine/rank/llm_cache.h"
#include "engine/rank/llm_client.h"

namespace smallfix::cli {

void AddLlmFlags(CLI::App& command, LlmFlags& flags, const std::string& url_help,
                 const std::string& propose_help) {
  flags.cache = LlmCache::DefaultDir();
  CLI::Option* url = command.add_option("--llm", flags.url, url_help);
  command
      .add_option("--llm-model", flags.model,
                  "Model name (default: the server's first /v1/models entry)")
      ->needs(url);
  command
      .add_option("--llm-timeout", flags.timeout_seconds, "Seconds per LLM request (default 60)")
      ->needs(url);
  command.add_option("--llm-propose", flags.propose, propose_help)->needs(url);
  command
      .add_option("--llm-cache", flags.cache,
                  "Directory of cached LLM answers (default $XDG_CACHE_HOME/smallfix/llm or "
                  "~/.cache/smallfix/llm)")
      ->needs(url);
}

absl::Status CheckLlmFlags(const LlmFlags& flags) {
  if (!flags.url.empty()) {
    if (absl::Status url = CheckLlmUrl(flags.url, "--llm"); !url.ok()) return url;
  }
  if (!(flags.timeout_seconds > 0))
    return absl::InvalidArgumentError("--llm-timeout must be more than 0 seconds");
  if (flags.propose < 0) return absl::InvalidArgumentError("--llm-propose must be 0 or more");
  return absl::OkStatus();
}

}  // namespace smallfix::cli
