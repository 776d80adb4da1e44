#ifndef SMALLFIX_ENGINE_BENCH_SMALLFIX_PROGRESS_BAR_H_
#define SMALLFIX_ENGINE_BENCH_SMALLFIX_PROGRESS_BAR_H_

#include <chrono>
#include <mutex>
#include <ostream>
#include <set>
#include <string>

#include "engine/bench/smallfix/bug_result.h"

namespace smallfix::bench {

// Progress of a bench run on a stream (stderr). On a terminal one line is redrawn in
// place with \r: a bar, done/total, the bugs running now and the time elapsed. Elsewhere
// (a CI log) one line is printed per finished bug. Safe to call from several threads.
class ProgressBar {
 public:
  ProgressBar(int total, bool terminal, std::ostream& out);
  void Started(const std::string& id);
  void Finished(const BugResult& result);
  // Ends the redrawn line (terminal only).
  void Close();

  // The redrawn line's text (without \r), for tests.
  std::string Line() const;

 private:
  std::string LineLocked() const;
  std::string Elapsed() const;

  const int total_;
  const bool terminal_;
  std::ostream& out_;
  const std::chrono::steady_clock::time_point start_;
  mutable std::mutex mutex_;
  int done_ = 0;
  std::set<std::string> running_;
};

}  // namespace smallfix::bench

#endif  // SMALLFIX_ENGINE_BENCH_SMALLFIX_PROGRESS_BAR_H_
