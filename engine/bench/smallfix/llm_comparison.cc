#include "engine/bench/smallfix/llm_comparison.h"

#include <algorithm>

#include "absl/strings/str_format.h"

namespace smallfix::bench {

LlmComparison CompareLlm(const BenchRun& run) {
  LlmComparison c;
  for (const BugResult& bug : run.bugs) {
    if (!bug.llm) continue;
    ++c.bugs;
    for (const std::string& note : bug.llm_notes) {
      if (note.starts_with("llm ranking not used")) ++c.fallbacks;
    }
    if (!bug.heuristic_rank || !bug.llm_rank) continue;
    ++c.with_correct;
    c.heuristic_at1 += *bug.heuristic_rank == 1;
    c.llm_at1 += *bug.llm_rank == 1;
    c.heuristic_mean_rank += *bug.heuristic_rank;
    c.llm_mean_rank += *bug.llm_rank;
    const double n = bug.ranked, k = std::max(1, bug.correct_candidates);
    c.random_at1 += k / n;
    c.random_mean_rank += (n + 1) / (k + 1);
    c.improved += *bug.llm_rank < *bug.heuristic_rank;
    c.worsened += *bug.llm_rank > *bug.heuristic_rank;
  }
  if (c.with_correct > 0) {
    c.heuristic_mean_rank /= c.with_correct;
    c.llm_mean_rank /= c.with_correct;
    c.random_mean_rank /= c.with_correct;
  }
  return c;
}

std::string LlmComparisonText(const BenchRun& run) {
  const LlmComparison c = CompareLlm(run);
  std::string out = absl::StrFormat(
      "\nLLM ranking (%s) against the heuristic, same candidates, %d bug(s) with a candidate "
      "equal to the reference fix:\n",
      run.llm_model.empty() ? "model unknown" : run.llm_model, c.with_correct);
  out += absl::StrFormat("%-10s %10s %16s\n", "order", "correct@1", "mean rank");
  out +=
      absl::StrFormat("%-10s %10d %16.2f\n", "heuristic", c.heuristic_at1, c.heuristic_mean_rank);
  out += absl::StrFormat("%-10s %10d %16.2f\n", "llm", c.llm_at1, c.llm_mean_rank);
  out += absl::StrFormat("%-10s %10.1f %16.2f  (expected)\n", "random", c.random_at1,
                         c.random_mean_rank);
  out += absl::StrFormat(
      "correct candidate moved up in %d bug(s), down in %d; the model's answer was not used in %d "
      "of %d run(s)\n",
      c.improved, c.worsened, c.fallbacks, c.bugs);
  return out;
}

nlohmann::json LlmComparisonJson(const BenchRun& run) {
  const LlmComparison c = CompareLlm(run);
  return {{"model", run.llm_model},
          {"bugs", c.bugs},
          {"with_correct_candidate", c.with_correct},
          {"heuristic", {{"correct_at_1", c.heuristic_at1}, {"mean_rank", c.heuristic_mean_rank}}},
          {"llm", {{"correct_at_1", c.llm_at1}, {"mean_rank", c.llm_mean_rank}}},
          {"random_expected", {{"correct_at_1", c.random_at1}, {"mean_rank", c.random_mean_rank}}},
          {"improved", c.improved},
          {"worsened", c.worsened},
          {"fallbacks", c.fallbacks}};
}

}  // namespace smallfix::bench
