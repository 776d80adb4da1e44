#ifndef SMALLFIX_ENGINE_BENCH_SMALLFIX_RESULTS_JSON_H_
#define SMALLFIX_ENGINE_BENCH_SMALLFIX_RESULTS_JSON_H_

#include <nlohmann/json.hpp>

#include "engine/bench/smallfix/bench_run.h"

namespace smallfix::bench {

// {"mode", "bugs": [{"id", "family", "world_size", "plausible", "correct", "rank",
//  "candidates", "validated", "seconds", "error"?, ...}], "totals": {family: {...}, "all": {...}}}
nlohmann::json ResultsJson(const BenchRun& run);

}  // namespace smallfix::bench

#endif  // SMALLFIX_ENGINE_BENCH_SMALLFIX_RESULTS_JSON_H_
