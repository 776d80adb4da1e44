#include "engine/bench/smallfix/results_markdown.h"

#include "absl/strings/str_format.h"
#include "engine/bench/smallfix/totals.h"

namespace smallfix::bench {
namespace {

std::string Percent(int part, int whole) {
  return whole ? absl::StrFormat("%d (%.0f%%)", part, 100.0 * part / whole) : "0";
}

std::string YesNo(bool value) { return value ? "yes" : "no"; }

}  // namespace

std::string ResultsMarkdown(const BenchRun& run) {
  const std::map<std::string, Totals> totals = ComputeTotals(run.bugs);
  std::string out = absl::StrFormat(
      "Mode: `%s` (%s). %d bugs, %.0f s wall-clock with --jobs %d, %s test runs.\n\n", run.mode,
      run.mode == "perfect"          ? "perfect localization: repaired at bug.yaml's site"
      : run.mode == "issue+coverage" ? "localized from issue.md and coverage over the tests"
                                     : "localized from issue.md alone",
      run.bugs.size(), run.seconds, run.jobs, run.warm ? "warm" : "cold");
  out += "| family | bugs | plausible | correct | correct at rank 1 | mean s | median s |\n";
  out += "|---|---:|---:|---:|---:|---:|---:|\n";
  for (const std::string& key : TotalsOrder(totals)) {
    const Totals& t = totals.at(key);
    const std::string name = key == "all" ? "**all**" : key;
    out += absl::StrFormat("| %s | %d | %s | %s | %d | %.1f | %.1f |\n", name, t.bugs,
                           Percent(t.plausible, t.bugs), Percent(t.correct, t.bugs),
                           t.correct_at_rank1, t.mean_seconds, t.median_seconds);
  }
  out +=
      "\n| bug | family | ranks | plausible | correct | rank | candidates | validated | seconds | "
      "outcome |\n";
  out += "|---|---|---:|---|---|---:|---:|---:|---:|---|\n";
  for (const BugResult& bug : run.bugs) {
    std::string outcome = bug.outcome;
    if (!bug.correct_by.empty()) outcome += absl::StrFormat(" (%s)", bug.correct_by);
    if (!bug.template_id.empty()) outcome += absl::StrFormat(" `%s`", bug.template_id);
    if (!bug.error.empty()) {
      std::string error = bug.error.substr(0, bug.error.find('\n'));
      for (char& c : error) {
        if (c == '|') c = '/';
      }
      outcome += ": " + error;
    }
    out += absl::StrFormat("| %s | %s | %d | %s | %s | %s | %d | %d | %.1f | %s |\n", bug.id,
                           bug.family, bug.world_size, YesNo(bug.plausible), YesNo(bug.correct),
                           bug.rank ? absl::StrFormat("%d", *bug.rank) : "-", bug.candidates,
                           bug.validated, bug.seconds, outcome);
  }
  return out;
}

std::string SummaryText(const BenchRun& run) {
  const std::map<std::string, Totals> totals = ComputeTotals(run.bugs);
  std::string out = absl::StrFormat("%-8s %5s %10s %10s %8s %8s\n", "family", "bugs", "plausible",
                                    "correct", "mean s", "median s");
  for (const std::string& key : TotalsOrder(totals)) {
    const Totals& t = totals.at(key);
    out += absl::StrFormat("%-8s %5d %10d %10d %8.1f %8.1f\n", key, t.bugs, t.plausible, t.correct,
                           t.mean_seconds, t.median_seconds);
  }
  return out;
}

}  // namespace smallfix::bench
