#ifndef SMALLFIX_VALIDATORS_FACTS_FACT_PLUGIN_H_
#define SMALLFIX_VALIDATORS_FACTS_FACT_PLUGIN_H_

#include <map>
#include <string>
#include <vector>

namespace smallfix {

// Asking one pytest run for its runtime facts: the capture plugin beside this file
// (smallfix_fact_capture.py) writes them as JSON (docs/runtime-facts.md; read with
// engine/facts/runtime_facts.h). The plugin never changes a test's outcome.
struct FactRequest {
  std::string path;   // where the JSON goes; "{rank}" in it becomes the process's RANK
  std::string trace;  // "FILE:LINE" (repo-relative) whose locals passing tests record; "" none
};

// The folder that holds the plugin: $SMALLFIX_FACT_PLUGIN_DIR, else validators/facts of the
// running binary's source tree (build/smallfix -> validators/facts), else the one this was
// built from.
std::string FactPluginDir();

// pytest's arguments that load the plugin and ask for `request`, unquoted (the warm server's
// form); FactPluginArguments is the same quoted for /bin/sh, with a leading space.
std::vector<std::string> FactPluginArgv(const FactRequest& request);
std::string FactPluginArguments(const FactRequest& request);

// `env` with the plugin's folder first on PYTHONPATH, before `env`'s own PYTHONPATH or, when it
// has none, the inherited one (a process's `env` is applied over what it inherits).
void AddFactPluginPath(std::map<std::string, std::string>& env);

// Where rank `rank` of a run writes its facts in the run's scratch `dir`, and the facts of the
// lowest rank that wrote any ("" when none did).
std::string RankFactsPath(const std::string& dir, int rank);
std::string FirstRankFacts(const std::string& dir, int world);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_FACTS_FACT_PLUGIN_H_
