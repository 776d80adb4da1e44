#ifndef SMALLFIX_ENGINE_BASE_TEMP_DIR_H_
#define SMALLFIX_ENGINE_BASE_TEMP_DIR_H_

#include <stdlib.h>
#include <string.h>

#include <cerrno>
#include <filesystem>
#include <string>

#include "absl/status/statusor.h"
#include "engine/base/run_owner.h"

namespace smallfix {

// A fresh directory under the system's temporary directory ($TMPDIR), removed with
// everything in it when the object goes away: on return, on an error path, and when a
// cancelled run unwinds.
class TempDir {
 public:
  // `prefix` and this process's owner tag name it ("smallfix" ->
  // /tmp/smallfix-4242.880123.0a1b2c3d-Ab12Cd; run_owner.h), so that a later run can remove it
  // when this one was killed before it could (SweepDeadRunDirs). A TMPDIR that is missing,
  // read-only or full is the user's to fix: the error names it (FailedPrecondition: exit 2).
  static absl::StatusOr<TempDir> Create(const std::string& prefix = "smallfix") {
    std::error_code error;
    const std::filesystem::path base = std::filesystem::temp_directory_path(error);
    if (error) {
      const char* tmpdir = getenv("TMPDIR");
      return absl::FailedPreconditionError(
          std::string("TMPDIR ") + (tmpdir != nullptr ? tmpdir : "") +
          " is not a directory: " + error.message() + "; set TMPDIR to a writable directory");
    }
    std::string pattern = (base / (prefix + "-" + OwnerTag(ThisProcess()) + "-XXXXXX")).string();
    if (mkdtemp(pattern.data()) == nullptr) {
      return absl::FailedPreconditionError("cannot create a temporary directory under " +
                                           base.string() + " (TMPDIR): " + strerror(errno) +
                                           "; set TMPDIR to a writable directory");
    }
    return TempDir(std::move(pattern));
  }
  TempDir(TempDir&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  TempDir& operator=(TempDir&&) = delete;
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }

  const std::string& path() const { return path_; }

 private:
  explicit TempDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_BASE_TEMP_DIR_H_
