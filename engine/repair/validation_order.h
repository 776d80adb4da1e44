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

// How many candidates past a weak plausible one a repair validates unless told otherwise
// (--weak-lookahead): realbugs dev's fixes that a weak patch passed first ranked 2 and 6 after it.
inline constexpr int kDefaultWeakLookahead = 8;

struct ValidationOrderOptions {
  int top = 1;   // stop once this many plausible candidates are known ...
  int jobs = 1;  // ... validating this many at once
  // Whether candidate `index` is weak: a kind of patch that often passes tests that do not
  // reach the fault (a deletion, an early exit on a synthesized condition). A weak plausible
  // candidate holds the cut-off open for `weak_lookahead` more candidates, so that a plausible
  // one that is not weak can still be found. Unset: none is weak.
  std::function<bool(size_t index)> weak;
  size_t weak_lookahead = 0;
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
// "skipped" (unless it had already become plausible). A weak one among those `top` moves the
// cut-off `weak_lookahead` candidates past it, unless `top` plausible candidates that are not
// weak are known first. A better-ranked candidate that is still running when a worse one
// turns plausible is waited for, so the result does not depend on `jobs` or on timing.
ValidationOrderOutcome ValidateInOrder(size_t count, const ValidateFunction& validate,
                                       const ValidationOrderOptions& options);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_VALIDATION_ORDER_H_
