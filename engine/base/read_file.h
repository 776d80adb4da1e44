#ifndef SMALLFIX_ENGINE_BASE_READ_FILE_H_
#define SMALLFIX_ENGINE_BASE_READ_FILE_H_

#include <fstream>
#include <iterator>
#include <string>

#include "absl/status/statusor.h"

namespace smallfix {

// A whole file's bytes; NotFound naming the path when it cannot be opened.
inline absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(path + ": cannot read the file");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_BASE_READ_FILE_H_
