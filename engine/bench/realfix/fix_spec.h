#ifndef SMALLFIX_ENGINE_BENCH_REALFIX_FIX_SPEC_H_
#define SMALLFIX_ENGINE_BENCH_REALFIX_FIX_SPEC_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace smallfix::realfix {

// One real upstream fix, a line of benchmarks/realfix/fixes.jsonl: facts about a commit, no code.
struct FixSpec {
  std::string id;
  std::string repo;              // "OWNER/NAME"
  std::string fix_commit;        // full sha
  std::string parent_commit;     // full sha
  std::string file;              // repo-relative path of the one Python file the fix changes
  std::vector<int> fault_lines;  // 1-based lines in the parent's file the fix changes
  std::string family;            // guard | param | compat | other
  std::string description;
  std::optional<std::string> symptom;  // "Type: message" when the commit or its issue states it
  std::string split;                   // dev | test
};

// Parses JSON lines (blank lines and lines starting with '#' are skipped). A bad line is an
// InvalidArgument naming `source`, the line number and the field that is wrong; ids must be unique.
absl::StatusOr<std::vector<FixSpec>> ParseFixes(const std::string& text, const std::string& source);

// Reads and parses a fixes.jsonl file.
absl::StatusOr<std::vector<FixSpec>> LoadFixes(const std::string& path);

}  // namespace smallfix::realfix

#endif  // SMALLFIX_ENGINE_BENCH_REALFIX_FIX_SPEC_H_
