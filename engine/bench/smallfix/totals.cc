#include "engine/bench/smallfix/totals.h"

#include <algorithm>

namespace smallfix::bench {
namespace {

constexpr const char* kFamilyOrder[] = {"guard", "param", "compat", "other"};

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

Totals Sum(const std::vector<const BugResult*>& group) {
  Totals totals;
  std::vector<double> seconds;
  for (const BugResult* result : group) {
    ++totals.bugs;
    totals.plausible += result->plausible;
    totals.correct += result->correct;
    totals.errors += !result->error.empty();
    totals.correct_at_rank1 += result->correct && result->rank == 1;
    seconds.push_back(result->seconds);
  }
  double sum = 0;
  for (double s : seconds) sum += s;
  totals.mean_seconds = seconds.empty() ? 0 : sum / seconds.size();
  totals.median_seconds = Median(seconds);
  return totals;
}

}  // namespace

std::map<std::string, Totals> ComputeTotals(const std::vector<BugResult>& results) {
  std::map<std::string, std::vector<const BugResult*>> groups;
  std::vector<const BugResult*> all;
  for (const BugResult& result : results) {
    groups[result.family].push_back(&result);
    all.push_back(&result);
  }
  std::map<std::string, Totals> totals;
  for (const auto& [family, group] : groups) totals[family] = Sum(group);
  totals["all"] = Sum(all);
  return totals;
}

std::vector<std::string> TotalsOrder(const std::map<std::string, Totals>& totals) {
  std::vector<std::string> order;
  for (const char* family : kFamilyOrder) {
    if (totals.count(family)) order.push_back(family);
  }
  for (const auto& [key, unused] : totals) {
    if (key != "all" && std::find(order.begin(), order.end(), key) == order.end())
      order.push_back(key);
  }
  if (totals.count("all")) order.push_back("all");
  return order;
}

}  // namespace smallfix::bench
