#ifndef SMALLFIX_VALIDATORS_PROCESS_POLL_BACKOFF_H_
#define SMALLFIX_VALIDATORS_PROCESS_POLL_BACKOFF_H_

#include <algorithm>
#include <chrono>

namespace smallfix {

// When to ask a scheduler about a job next: soon at first (most test jobs are short), then
// less and less often up to `longest`, so a long job costs the controller one query every
// few seconds, not twenty. Ready() is cheap: callers check it between short sleeps, so they
// still see a cancellation at once.
class PollBackoff {
 public:
  using Clock = std::chrono::steady_clock;

  PollBackoff(double first_seconds = 0.25, double longest_seconds = 5, double factor = 1.5)
      : delay_(first_seconds), longest_(longest_seconds), factor_(factor), next_(Clock::now()) {}

  // True when the next query is due; it then schedules the one after it.
  bool Ready() {
    const Clock::time_point now = Clock::now();
    if (now < next_) return false;
    next_ =
        now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(delay_));
    delay_ = std::min(longest_, delay_ * factor_);
    return true;
  }

  // The current delay between queries, in seconds.
  double delay_seconds() const { return delay_; }

 private:
  double delay_;
  double longest_;
  double factor_;
  Clock::time_point next_;
};

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_PROCESS_POLL_BACKOFF_H_
