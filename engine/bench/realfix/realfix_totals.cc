#include "engine/bench/realfix/realfix_totals.h"

#include <algorithm>

namespace smallfix::realfix {
namespace {

void CountParts(const Attempt& attempt, Tally& tally) {
  if (attempt.parts.empty()) return;
  ++tally.multi_part;
  const size_t made = std::count_if(attempt.parts.begin(), attempt.parts.end(),
                                    [](const PartOutcome& part) { return part.rank.has_value(); });
  if (made == attempt.parts.size()) {
    ++tally.all_parts;
    tally.all_parts_not_at5 += !attempt.rank || *attempt.rank > 5;
  } else if (made > 0) {
    ++tally.some_parts;
  }
}

void Count(const Attempt& attempt, Tally& tally) {
  (attempt.candidates > 0 ? tally.with_candidate : tally.no_candidate)++;
  CountParts(attempt, tally);
  if (!attempt.rank) return;
  tally.at1 += *attempt.rank <= 1;
  tally.at5 += *attempt.rank <= 5;
  tally.at10 += *attempt.rank <= 10;
}

void Add(const FixResult& result, GroupTotals& group) {
  ++group.fixes;
  group.symptom_given += result.has_symptom;
  if (!result.error.empty()) {
    ++group.errors;
    return;
  }
  Count(result.with_symptom, group.with_symptom);
  Count(result.without_symptom, group.without_symptom);
}

}  // namespace

RealfixTotals Tabulate(const std::vector<FixResult>& results) {
  RealfixTotals totals;
  for (const FixResult& result : results) {
    Add(result, totals.all);
    Add(result, totals.by_family[result.family]);
    Add(result, totals.by_project[result.repo]);
    Add(result, totals.by_split[result.split]);
  }
  return totals;
}

}  // namespace smallfix::realfix
