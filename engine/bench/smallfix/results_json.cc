#include "engine/bench/smallfix/results_json.h"

#include <cmath>

#include "engine/bench/smallfix/llm_comparison.h"
#include "engine/bench/smallfix/totals.h"

namespace smallfix::bench {
namespace {

double Round(double value, double unit) { return std::round(value / unit) * unit; }

nlohmann::json BugJson(const BugResult& bug) {
  nlohmann::json out = {
      {"id", bug.id},
      {"family", bug.family},
      {"world_size", bug.world_size},
      {"plausible", bug.plausible},
      {"correct", bug.correct},
      {"rank", bug.rank ? nlohmann::json(*bug.rank) : nlohmann::json(nullptr)},
      {"candidates", bug.candidates},
      {"validated", bug.validated},
      {"warm", bug.warm},
      {"seconds", Round(bug.seconds, 0.01)},
      {"outcome", bug.outcome},
      {"site_found", bug.site_found},
  };
  if (!bug.correct_by.empty()) out["correct_by"] = bug.correct_by;
  if (!bug.template_id.empty()) out["template"] = bug.template_id;
  if (!bug.error.empty()) out["error"] = bug.error;
  if (bug.llm) {
    out["heuristic_rank"] =
        bug.heuristic_rank ? nlohmann::json(*bug.heuristic_rank) : nlohmann::json(nullptr);
    out["llm_rank"] = bug.llm_rank ? nlohmann::json(*bug.llm_rank) : nlohmann::json(nullptr);
    out["llm_notes"] = bug.llm_notes;
    out["ranked"] = bug.ranked;
    out["correct_candidates"] = bug.correct_candidates;
  }
  return out;
}

nlohmann::json TotalsJson(const Totals& totals) {
  return {
      {"bugs", totals.bugs},
      {"plausible", totals.plausible},
      {"correct", totals.correct},
      {"correct_at_rank1", totals.correct_at_rank1},
      {"errors", totals.errors},
      {"plausible_rate", Round(totals.PlausibleRate(), 0.001)},
      {"correct_rate", Round(totals.CorrectRate(), 0.001)},
      {"mean_seconds", Round(totals.mean_seconds, 0.01)},
      {"median_seconds", Round(totals.median_seconds, 0.01)},
  };
}

}  // namespace

nlohmann::json ResultsJson(const BenchRun& run) {
  nlohmann::json bugs = nlohmann::json::array();
  for (const BugResult& bug : run.bugs) bugs.push_back(BugJson(bug));
  nlohmann::json totals = nlohmann::json::object();
  for (const auto& [key, value] : ComputeTotals(run.bugs)) totals[key] = TotalsJson(value);
  nlohmann::json out = {{"mode", run.mode},
                        {"jobs", run.jobs},
                        {"validation", run.warm ? "warm" : "cold"},
                        {"seconds", Round(run.seconds, 0.1)},
                        {"bugs", bugs},
                        {"totals", totals}};
  // Only with --llm, so that a run without it writes what it always did.
  if (!run.llm_model.empty()) out["llm"] = LlmComparisonJson(run);
  return out;
}

}  // namespace smallfix::bench
