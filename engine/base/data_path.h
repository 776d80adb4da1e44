#ifndef SMALLFIX_ENGINE_BASE_DATA_PATH_H_
#define SMALLFIX_ENGINE_BASE_DATA_PATH_H_

#include <filesystem>
#include <string>

namespace smallfix {

// Where a data file or folder the binary reads at run time (templates, the API history, the
// validator scripts, the benchmark's bugs) is: $`variable` when set; else `relative` in the
// nearest folder above the running binary that has `marker` (build/smallfix -> the checkout's
// root; bin/smallfix in the installed wheel -> the package, which mirrors the checkout); else
// `fallback`, the source tree's path compiled in.
std::string FindData(const char* variable, const std::filesystem::path& relative,
                     const std::filesystem::path& marker, const char* fallback);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_BASE_DATA_PATH_H_
