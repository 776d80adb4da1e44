#ifndef SMALLFIX_ENGINE_BENCH_REALBUGS_REALBUGS_RESULTS_H_
#define SMALLFIX_ENGINE_BENCH_REALBUGS_REALBUGS_RESULTS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/bench/realbugs/real_bug_result.h"
#include "nlohmann/json.hpp"

namespace smallfix::realbugs {

struct RealbugsRun {
  std::string mode;    // "verify", "repair" or "localize"
  std::string split;   // "dev", "test" or "all"
  std::string engine;  // the commit the binary was built from, when known
  int jobs = 1;
  bool warm = true;
  double seconds = 0;
  int llm_propose = -1;  // --llm: edits asked of the model per bug (0: it only ranks); -1: no --llm
  std::vector<RealBugResult> results;
};

// The figures of a set of results; rates are over `bugs`, errors included.
struct RealbugsTotals {
  int bugs = 0, errors = 0, verified = 0, multi_process = 0;
  int plausible = 0, correct = 0, overfit = 0, localized_top1 = 0, localized_top3 = 0;
  int fix_generated = 0;  // a candidate, validated or not, has the fix's syntax tree
  int fix_by_llm = 0;     // ... and the first such candidate is the model's edit
  // Median over the plausible bugs of (seconds to the first plausible patch / one cold run of
  // the failing tests); nullopt when none was plausible.
  std::optional<double> median_time_ratio;
};

RealbugsTotals Totals(const std::vector<RealBugResult>& results);

nlohmann::json RealbugsJson(const RealbugsRun& run);
// Totals by split and by project, then one row per bug.
std::string RealbugsMarkdown(const RealbugsRun& run);
// A few lines for the terminal.
std::string RealbugsSummary(const RealbugsRun& run);
// Bars per project: plausible, correct and overfit out of the bugs (or verified, --verify).
std::string RealbugsSvg(const RealbugsRun& run);

}  // namespace smallfix::realbugs

#endif  // SMALLFIX_ENGINE_BENCH_REALBUGS_REALBUGS_RESULTS_H_
