#ifndef SMALLFIX_ENGINE_BENCH_SMALLFIX_RESULTS_MARKDOWN_H_
#define SMALLFIX_ENGINE_BENCH_SMALLFIX_RESULTS_MARKDOWN_H_

#include <string>

#include "engine/bench/smallfix/bench_run.h"

namespace smallfix::bench {

// Two GitHub markdown tables: totals per family (and all), then one row per bug.
std::string ResultsMarkdown(const BenchRun& run);

// The totals table alone, as plain aligned text for a terminal.
std::string SummaryText(const BenchRun& run);

}  // namespace smallfix::bench

#endif  // SMALLFIX_ENGINE_BENCH_SMALLFIX_RESULTS_MARKDOWN_H_
