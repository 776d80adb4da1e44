#ifndef SMALLFIX_ENGINE_BASE_READ_FILE_H_
#define SMALLFIX_ENGINE_BASE_READ_FILE_H_

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "absl/status/statusor.h"

namespace smallfix {

// The last `max_bytes` bytes of the regular file `path` (all of it when it is smaller), and
// its full size in `*size` when given. A directory, a pipe or a device is refused before it
// is opened (a pipe nobody writes to would block, /dev/zero never ends); errors name the path
// and say what is wrong with it.
inline absl::StatusOr<std::string> ReadFileTail(const std::string& path, size_t max_bytes,
                                                size_t* size = nullptr) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0) {
    return absl::NotFoundError(path + ": cannot read the file: " + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode))
    return absl::InvalidArgumentError(path + ": is a directory, not a file");
  if (!S_ISREG(info.st_mode)) {
    return absl::InvalidArgumentError(path + ": not a regular file (a pipe, socket or device)");
  }
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    return absl::NotFoundError(path + ": cannot read the file: " + std::strerror(errno));
  }
  const size_t total = static_cast<size_t>(info.st_size);
  const size_t take = total < max_bytes ? total : max_bytes;
  std::string text(take, '\0');
  const bool seeked = std::fseek(file, static_cast<long>(total - take), SEEK_SET) == 0;
  const size_t got = seeked ? std::fread(text.data(), 1, take, file) : 0;
  const bool failed = !seeked || std::ferror(file) != 0;
  const int error = errno;
  std::fclose(file);
  if (failed) return absl::DataLossError(path + ": read failed: " + std::strerror(error));
  text.resize(got);
  if (size != nullptr) *size = total;
  return text;
}

// A whole regular file's bytes; errors as ReadFileTail's.
inline absl::StatusOr<std::string> ReadFile(const std::string& path) {
  return ReadFileTail(path, static_cast<size_t>(-1));
}

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_BASE_READ_FILE_H_
