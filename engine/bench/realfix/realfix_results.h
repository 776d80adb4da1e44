#ifndef SMALLFIX_ENGINE_BENCH_REALFIX_REALFIX_RESULTS_H_
#define SMALLFIX_ENGINE_BENCH_REALFIX_REALFIX_RESULTS_H_

#include <string>
#include <vector>

#include "engine/bench/realfix/fix_result.h"
#include "nlohmann/json.hpp"

namespace smallfix::realfix {

// One `smallfix bench --realfix` run: how it was asked for and what each fix gave.
struct RealfixRun {
  std::string split;  // dev | test | all
  std::string fixes_file;
  std::string tree;  // all | package
  int jobs = 1;
  bool llm = false;     // bench --llm
  int llm_propose = 0;  // bench --llm-propose N
  double seconds = 0;
  std::vector<FixResult> results;
};

nlohmann::json RealfixJson(const RealfixRun& run);
std::string RealfixMarkdown(const RealfixRun& run);
// The few lines printed on stdout at the end of a run.
std::string RealfixSummary(const RealfixRun& run);

}  // namespace smallfix::realfix

#endif  // SMALLFIX_ENGINE_BENCH_REALFIX_REALFIX_RESULTS_H_
