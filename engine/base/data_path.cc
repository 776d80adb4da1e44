#include "engine/base/data_path.h"

#include <cstdlib>
#include <system_error>

namespace smallfix {

std::string FindData(const char* variable, const std::filesystem::path& relative,
                     const std::filesystem::path& marker, const char* fallback) {
  if (const char* env = std::getenv(variable); env != nullptr && *env != '\0') return env;
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    for (auto dir = exe.parent_path(); !dir.empty() && dir != dir.root_path();
         dir = dir.parent_path()) {
      if (std::filesystem::exists(dir / marker, error)) return (dir / relative).string();
    }
  }
  return fallback;
}

}  // namespace smallfix
