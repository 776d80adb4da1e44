#ifndef SMALLFIX_ENGINE_BENCH_SMALLFIX_RESULTS_CHART_H_
#define SMALLFIX_ENGINE_BENCH_SMALLFIX_RESULTS_CHART_H_

#include <string>
#include <vector>

#include "engine/bench/smallfix/bench_run.h"

namespace smallfix::bench {

// A standalone SVG document with two panels: the plausible and correct rates per family
// (and over all bugs) as grouped bars, and a histogram of the seconds each fixed bug took.
std::string ResultsSvg(const BenchRun& run);

// Equal-width bins over [0, max(values)] for a histogram: `bins` counts and the bin width.
struct Histogram {
  std::vector<int> counts;
  double width = 1;
};
Histogram MakeHistogram(const std::vector<double>& values, int bins);

}  // namespace smallfix::bench

#endif  // SMALLFIX_ENGINE_BENCH_SMALLFIX_RESULTS_CHART_H_
