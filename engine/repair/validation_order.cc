#include "engine/repair/validation_order.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

namespace smallfix {

ValidationOrderOutcome ValidateInOrder(size_t count, const ValidateFunction& validate,
                                       const ValidationOrderOptions& options) {
  const size_t n = count;
  const size_t want = static_cast<size_t>(std::max(1, options.top));
  ValidationOrderOutcome outcome;
  outcome.results.resize(n);
  std::mutex mutex;
  size_t next = 0;
  std::vector<bool> done(n, false);
  std::vector<std::unique_ptr<std::atomic<bool>>> stop(n);
  for (auto& flag : stop) flag = std::make_unique<std::atomic<bool>>(false);
  size_t cutoff = n;  // candidates at or past this index are not needed any more

  auto cut_at = [&](size_t at) {  // under mutex; the cut-off only ever moves up the ranking
    if (at >= cutoff) return;
    cutoff = at;
    for (size_t j = cutoff; j < n; ++j) *stop[j] = true;
  };
  auto update_cutoff = [&] {  // under mutex
    size_t plausible = 0;     // of the first `want` plausible ones, weak or not
    size_t strong = 0;        // plausible and not weak
    size_t last = 0;          // the last of the first `want` plausible ones
    size_t open_until = 0;    // past the look-ahead of a weak one among them
    for (size_t i = 0; i < n; ++i) {
      if (!done[i] || outcome.results[i].status != ValidationStatus::kPlausible) continue;
      const bool weak = options.weak && options.weak(i);
      if (!weak && ++strong == want) return cut_at(i + 1);
      if (plausible == want) continue;
      ++plausible;
      last = i;
      if (weak) open_until = std::max(open_until, i + 1 + options.weak_lookahead);
    }
    if (plausible == want) cut_at(std::min(n, std::max(last + 1, open_until)));
  };
  auto cancelled = [&] { return options.cancel != nullptr && options.cancel->load(); };
  std::atomic<bool> workers_done{false};
  // Ctrl-C reaches every running candidate through its own stop flag.
  std::thread watcher([&] {
    while (!workers_done) {
      if (cancelled()) {
        for (auto& flag : stop) *flag = true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  auto work = [&] {
    for (;;) {
      size_t i;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (next >= n || next >= cutoff || cancelled()) return;
        i = next++;
      }
      if (options.started) options.started(i);
      ValidationResult result = validate(i, stop[i].get());
      std::lock_guard<std::mutex> lock(mutex);
      if (stop[i]->load() && result.status != ValidationStatus::kPlausible) {
        result.status = ValidationStatus::kSkipped;  // stopped: a better candidate won, or Ctrl-C
      }
      outcome.results[i] = std::move(result);
      done[i] = true;
      ++outcome.validated;
      if (options.finished) options.finished(i, outcome.results[i]);
      update_cutoff();
    }
  };
  std::vector<std::thread> workers;
  for (int j = 0; j < std::max(1, options.jobs); ++j) workers.emplace_back(work);
  for (std::thread& worker : workers) worker.join();
  workers_done = true;
  watcher.join();
  return outcome;
}

}  // namespace smallfix
