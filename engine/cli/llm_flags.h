#ifndef SMALLFIX_ENGINE_CLI_LLM_FLAGS_H_
#define SMALLFIX_ENGINE_CLI_LLM_FLAGS_H_

#include <CLI/CLI.hpp>
#include <string>

#include "absl/status/status.h"
#include "engine/repair/pipeline.h"

namespace smallfix::cli {

// Adds --llm URL, --llm-model, --llm-timeout, --llm-propose and --llm-cache to `command`,
// filling `flags` (its cache defaults to LlmCache::DefaultDir()); the last four need --llm.
// `url_help` and `propose_help` say what the model does for that command.
void AddLlmFlags(CLI::App& command, LlmFlags& flags, const std::string& url_help,
                 const std::string& propose_help);

// An http(s) --llm URL without credentials in it, a timeout above 0 and --llm-propose 0 or more;
// the error names the flag.
absl::Status CheckLlmFlags(const LlmFlags& flags);

}  // namespace smallfix::cli

#endif  // SMALLFIX_ENGINE_CLI_LLM_FLAGS_H_
