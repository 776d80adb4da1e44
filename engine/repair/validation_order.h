#ifndef SMALLFIX_ENGINE_REPAIR_VALIDATION_ORDER_H_
#define SMALLFIX_ENGINE_REPAIR_VALIDATION_ORDER_H_

#include <atomic>
#include <cstddef>
#include <functional>
#include <vector>

#include "validators/validator.h"

namespace smallfix {

// Validates candidate `index` (0 = best ranked); stops early, returning what it has, when
// `*stop` becomes true. The pipeline's is ValidateCandidate in a workspace; tests pass a fake.
using ValidateFunction =
    std::function<ValidationResult(size_t index, const std::atomic<bool>* stop)>;

struct ValidationOrderOptions {
  int top = 1;   // stop once this many plausible candidates are known ...
  int jobs = 1;  // ... validating this many at once
  const std::atomic<bool>* cancel = nullptr;  // Ctrl-C / SIGTERM: stop every running candidate
  // Called as candidate `index` starts, and as it finishes with its result (under a lock:
  // one call at a time, in the order candidates finish).
  std::function<void(size_t index)> started;
  std::function<void(size_t index, const ValidationResult& result)> finished;
};

struct ValidationOrderOutcome {
  std::vector<ValidationResult> results;  // one per candidate; "skipped" when never validated
  int validated = 0;                      // candidates whose validation ran (stopped ones too)
};

// Validates `count` candidates in rank order, `jobs` at a time, until `top` plausible ones
// are known and every candidate ranked above the last of them is done: a candidate ranked
// below that cut-off is not started, and one that is running is stopped and reported as
// "skipped" (unless it had already become plausible). A better-ranked candidate that is
// still running when a worse one turns plausible is waited for, so the result does not
// depend on `jobs` or on timing.
ValidationOrderOutcome ValidateInOrder(size_t count, const ValidateFunction& validate,
                                       const ValidationOrderOptions& options);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_VALIDATION_ORDER_H_
