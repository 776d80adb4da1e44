#ifndef SMALLFIX_ENGINE_BENCH_SMALLFIX_TOTALS_H_
#define SMALLFIX_ENGINE_BENCH_SMALLFIX_TOTALS_H_

#include <map>
#include <string>
#include <vector>

#include "engine/bench/smallfix/bug_result.h"

namespace smallfix::bench {

// Sums over a group of bugs.
struct Totals {
  int bugs = 0;
  int plausible = 0;
  int correct = 0;
  int errors = 0;
  int correct_at_rank1 = 0;  // rank == 1
  double mean_seconds = 0;
  double median_seconds = 0;
  double PlausibleRate() const { return bugs ? static_cast<double>(plausible) / bugs : 0; }
  double CorrectRate() const { return bugs ? static_cast<double>(correct) / bugs : 0; }
};

// Totals per family (guard, param, compat, other, in that order first, then any other
// family by name) and over all bugs under the key "all".
std::map<std::string, Totals> ComputeTotals(const std::vector<BugResult>& results);

// The keys of ComputeTotals' map in display order: the families, then "all".
std::vector<std::string> TotalsOrder(const std::map<std::string, Totals>& totals);

}  // namespace smallfix::bench

#endif  // SMALLFIX_ENGINE_BENCH_SMALLFIX_TOTALS_H_
