#include "validators/facts/fact_plugin.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/data_path.h"
#include "engine/base/read_file.h"
#include "validators/pytest_command.h"

namespace smallfix {

namespace fs = std::filesystem;

std::string FactPluginDir() {
  return FindData("SMALLFIX_FACT_PLUGIN_DIR", "validators/facts",
                  "validators/facts/smallfix_fact_capture.py", SMALLFIX_FACT_PLUGIN_DIR);
}

std::vector<std::string> FactPluginArgv(const FactRequest& request) {
  std::vector<std::string> args = {"-p", "smallfix_fact_capture",
                                   Concat("--smallfix-facts=", request.path)};
  if (!request.trace.empty()) args.push_back(Concat("--smallfix-facts-trace=", request.trace));
  return args;
}

std::string FactPluginArguments(const FactRequest& request) {
  std::string quoted;
  for (const std::string& arg : FactPluginArgv(request)) quoted += Concat(" ", ShellQuote(arg));
  return quoted;
}

void AddFactPluginPath(std::map<std::string, std::string>& env) {
  std::string rest;
  if (auto it = env.find("PYTHONPATH"); it != env.end()) {
    rest = it->second;
  } else if (const char* inherited = std::getenv("PYTHONPATH"); inherited != nullptr) {
    rest = inherited;
  }
  env["PYTHONPATH"] = rest.empty() ? FactPluginDir() : Concat(FactPluginDir(), ":", rest);
}

std::string RankFactsPath(const std::string& dir, int rank) {
  return absl::StrFormat("%s/rank%d.facts.json", dir, rank);
}

std::string FirstRankFacts(const std::string& dir, int world) {
  for (int rank = 0; rank < world; ++rank) {
    std::string text = ReadFile(RankFactsPath(dir, rank)).value_or("");
    if (!text.empty()) return text;
  }
  return "";
}

}  // namespace smallfix
