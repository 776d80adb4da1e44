#ifndef SMALLFIX_ENGINE_BENCH_SMALLFIX_LLM_COMPARISON_H_
#define SMALLFIX_ENGINE_BENCH_SMALLFIX_LLM_COMPARISON_H_

#include <nlohmann/json.hpp>
#include <string>

#include "engine/bench/smallfix/bench_run.h"

namespace smallfix::bench {

// bench --llm: the heuristic's order and the LLM-mixed order of the same candidates, side by
// side. Over the bugs where some candidate has the reference fix's AST: how often it is first
// (correct@1) and its mean rank in each order; and how many runs the model's answer was not
// used in (the heuristic order stood).
struct LlmComparison {
  int bugs = 0;          // run with --llm
  int with_correct = 0;  // a candidate has the reference fix's AST
  int heuristic_at1 = 0;
  int llm_at1 = 0;
  double heuristic_mean_rank = 0;
  double llm_mean_rank = 0;
  // A uniformly random order of the same candidates, in expectation: k correct of n are first
  // with probability k/n, and the first of them is at (n+1)/(k+1) on average.
  double random_at1 = 0;
  double random_mean_rank = 0;
  int improved = 0, worsened = 0;  // bugs whose correct candidate moved up / down
  int fallbacks = 0;               // the model's ranking was not used
};

LlmComparison CompareLlm(const BenchRun& run);
std::string LlmComparisonText(const BenchRun& run);
nlohmann::json LlmComparisonJson(const BenchRun& run);

}  // namespace smallfix::bench

#endif  // SMALLFIX_ENGINE_BENCH_SMALLFIX_LLM_COMPARISON_H_
