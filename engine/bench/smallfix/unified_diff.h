#ifndef SMALLFIX_ENGINE_BENCH_SMALLFIX_UNIFIED_DIFF_H_
#define SMALLFIX_ENGINE_BENCH_SMALLFIX_UNIFIED_DIFF_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/source/file_change.h"

namespace smallfix::bench {

// One file a patch changes (FileChange, engine/source/file_change.h): `file` relative to the
// patch's root ("pkg/mod.py" for a/pkg/mod.py).
using smallfix::FileChange;

// Reads a file by its path relative to the patch's root.
using FileReader = std::function<absl::StatusOr<std::string>(const std::string& file)>;

// Applies a unified diff (`git diff` or `diff -u` with a/ and b/ prefixes) to the files
// `read` gives, in memory. Hunks must match their context exactly; a hunk is looked for
// at its line first and then nearby, as `patch` does. /dev/null marks created files.
absl::StatusOr<std::vector<FileChange>> ApplyUnifiedDiff(const std::string& diff,
                                                         const FileReader& read);

}  // namespace smallfix::bench

#endif  // SMALLFIX_ENGINE_BENCH_SMALLFIX_UNIFIED_DIFF_H_
