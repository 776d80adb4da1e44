#ifndef SMALLFIX_ENGINE_BENCH_SMALLFIX_BENCH_RUN_H_
#define SMALLFIX_ENGINE_BENCH_SMALLFIX_BENCH_RUN_H_

#include <string>
#include <vector>

#include "engine/bench/smallfix/bug_result.h"

namespace smallfix::bench {

// One whole `smallfix bench` run: what the writers (JSON, markdown, SVG) render.
struct BenchRun {
  std::string mode = "issue";  // issue | issue+coverage | perfect
  std::vector<BugResult> bugs;
  double seconds = 0;  // wall-clock time of the run
  int jobs = 1;
  bool warm = true;       // test runs in a warm server per repair (false: bench --cold)
  std::string llm_model;  // bench --llm: the model asked ("" without --llm)
};

}  // namespace smallfix::bench

#endif  // SMALLFIX_ENGINE_BENCH_SMALLFIX_BENCH_RUN_H_
