#ifndef SMALLFIX_ENGINE_BASE_DIR_LOCK_H_
#define SMALLFIX_ENGINE_BASE_DIR_LOCK_H_

#include <atomic>
#include <functional>
#include <string>

#include "absl/status/statusor.h"

namespace smallfix {

// An exclusive lock on a directory, for the few things that runs at once must change one at a
// time: the bot's kept clone, the user's tree under `repair --apply`. It is flock(2) on the
// directory itself, so nothing is left behind, and the kernel drops it when the process ends,
// however it ends. Runs that only read a repository (worktrees, tests) take no lock.
class DirLock {
 public:
  // Locks `dir` (created when missing). When another process holds it, calls `on_wait` once
  // (to say who is waiting for what) and waits, polling `cancel` (Ctrl-C: CancelledError).
  static absl::StatusOr<DirLock> Acquire(const std::string& dir,
                                         const std::function<void()>& on_wait,
                                         const std::atomic<bool>* cancel);
  DirLock(DirLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;
  DirLock& operator=(DirLock&&) = delete;
  ~DirLock();

 private:
  explicit DirLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_BASE_DIR_LOCK_H_
