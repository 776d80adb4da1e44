#ifndef SMALLFIX_ENGINE_BENCH_REALFIX_REALFIX_TOTALS_H_
#define SMALLFIX_ENGINE_BENCH_REALFIX_REALFIX_TOTALS_H_

#include <map>
#include <string>
#include <vector>

#include "engine/bench/realfix/fix_result.h"

namespace smallfix::realfix {

// Counts over the fixes of one group under one condition (with or without the symptom).
struct Tally {
  int with_candidate = 0;          // fixes where the engine generated at least one candidate
  int no_candidate = 0;            // ... none (errors excluded)
  int at1 = 0, at5 = 0, at10 = 0;  // the fixed file's AST among the first 1, 5, 10 candidates
  // Fixes of two or more parts (Attempt::parts); of them, those whose every part some
  // candidate makes alone, and of these the ones with no whole fix in the first five (what
  // combining candidates misses); those with some parts made, but not all.
  int multi_part = 0, all_parts = 0, all_parts_not_at5 = 0, some_parts = 0;
};

struct GroupTotals {
  int fixes = 0;
  int errors = 0;         // runs that failed (no mirror, no commit); in no tally
  int symptom_given = 0;  // fixes that state a symptom
  Tally with_symptom, without_symptom;
};

struct RealfixTotals {
  GroupTotals all;
  std::map<std::string, GroupTotals> by_family, by_project, by_split;
};

RealfixTotals Tabulate(const std::vector<FixResult>& results);

}  // namespace smallfix::realfix

#endif  // SMALLFIX_ENGINE_BENCH_REALFIX_REALFIX_TOTALS_H_
