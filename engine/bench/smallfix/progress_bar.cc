#include "engine/bench/smallfix/progress_bar.h"

#include "absl/strings/str_format.h"

namespace smallfix::bench {
namespace {
constexpr int kBarWidth = 24;
}  // namespace

ProgressBar::ProgressBar(int total, bool terminal, std::ostream& out)
    : total_(total), terminal_(terminal), out_(out), start_(std::chrono::steady_clock::now()) {}

std::string ProgressBar::Elapsed() const {
  const int seconds = static_cast<int>(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  return absl::StrFormat("%dm%02ds", seconds / 60, seconds % 60);
}

std::string ProgressBar::LineLocked() const {
  const int filled = total_ > 0 ? kBarWidth * done_ / total_ : kBarWidth;
  std::string running;
  for (const std::string& id : running_) running += (running.empty() ? "" : ", ") + id;
  return absl::StrFormat("bench [%s%s] %d/%d %s%s", std::string(filled, '#'),
                         std::string(kBarWidth - filled, '.'), done_, total_, Elapsed(),
                         running.empty() ? "" : "  running: " + running);
}

std::string ProgressBar::Line() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return LineLocked();
}

void ProgressBar::Started(const std::string& id) {
  std::lock_guard<std::mutex> lock(mutex_);
  running_.insert(id);
  if (terminal_) out_ << "\r" << LineLocked() << "\x1b[K" << std::flush;
}

void ProgressBar::Finished(const BugResult& result) {
  std::lock_guard<std::mutex> lock(mutex_);
  running_.erase(result.id);
  ++done_;
  if (terminal_) {
    out_ << "\r" << LineLocked() << "\x1b[K" << std::flush;
  } else {
    out_ << absl::StrFormat("bench: [%d/%d] %s: %s%s (%.1f s; %s elapsed)\n", done_, total_,
                            result.id, result.outcome,
                            result.error.empty() ? "" : " - " + result.error, result.seconds,
                            Elapsed())
         << std::flush;
  }
}

void ProgressBar::Close() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (terminal_) out_ << "\n" << std::flush;
}

}  // namespace smallfix::bench
