#include "engine/base/dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

#include "absl/strings/str_format.h"

namespace smallfix {
namespace {

// Whether `fd` is still the directory at `dir`: a holder may have removed it (a failed clone)
// and another run made a new one, whose lock is the one that counts.
bool StillThere(int fd, const std::string& dir) {
  struct stat held = {};
  struct stat now = {};
  return ::fstat(fd, &held) == 0 && ::stat(dir.c_str(), &now) == 0 && held.st_dev == now.st_dev &&
         held.st_ino == now.st_ino;
}

}  // namespace

absl::StatusOr<DirLock> DirLock::Acquire(const std::string& dir,
                                         const std::function<void()>& on_wait,
                                         const std::atomic<bool>* cancel) {
  bool told = false;
  while (true) {
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
      return absl::FailedPreconditionError(absl::StrFormat(
          "cannot open the directory %s to lock it: %s", dir, std::strerror(errno)));
    }
    while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK && errno != EINTR) {
        const int saved = errno;
        ::close(fd);
        return absl::FailedPreconditionError(
            absl::StrFormat("cannot lock %s: %s", dir, std::strerror(saved)));
      }
      if (!told && on_wait) on_wait();
      told = true;
      if (cancel != nullptr && cancel->load()) {
        ::close(fd);
        return absl::CancelledError(absl::StrFormat("interrupted while waiting for %s", dir));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (StillThere(fd, dir)) return DirLock(fd);
    ::close(fd);
  }
}

DirLock::~DirLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the lock
}

}  // namespace smallfix
