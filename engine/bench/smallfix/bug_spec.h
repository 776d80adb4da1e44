#ifndef SMALLFIX_ENGINE_BENCH_SMALLFIX_BUG_SPEC_H_
#define SMALLFIX_ENGINE_BENCH_SMALLFIX_BUG_SPEC_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace smallfix::bench {

// One benchmark bug: benchmarks/smallfix/bugs/<id>/bug.yaml and where its parts lie
// (format: benchmarks/smallfix/README.md).
struct BugSpec {
  std::string id;
  std::string title;
  std::string family;  // guard | param | compat | other
  std::string pattern;
  int lines_changed = 0;
  int world_size = 1;
  std::string site_file;  // relative to project/
  int site_line = 0;
  int timeout = 60;  // seconds per test command
  std::string failing_test;
  std::string passing_test;
  std::string heldback_test;

  std::string dir;  // the bug's directory; project/, heldback/, issue.md, fix.diff inside
  std::string ProjectDir() const { return dir + "/project"; }
  std::string HeldbackDir() const { return dir + "/heldback"; }
  std::string IssuePath() const { return dir + "/issue.md"; }
  std::string FixPath() const { return dir + "/fix.diff"; }
};

// Reads a bug.yaml's text. `path` names it in errors ("FILE:LINE: what is wrong").
// `expected_id`, when not empty, must equal its `id` (the directory's name).
absl::StatusOr<BugSpec> ParseBugSpec(const std::string& yaml_text, const std::string& path,
                                     const std::string& expected_id = "");

// Reads `bug_dir`/bug.yaml and checks that the bug's parts (issue.md, project/, fix.diff) exist.
absl::StatusOr<BugSpec> LoadBugSpec(const std::string& bug_dir);

// Every bug under `bugs_dir` (sorted by id), or only those in `ids` (in that order).
// An unknown id, a missing directory or a malformed bug.yaml is InvalidArgument/NotFound.
absl::StatusOr<std::vector<BugSpec>> LoadBugs(const std::string& bugs_dir,
                                              const std::vector<std::string>& ids);

// benchmarks/smallfix/bugs of the repository the running binary was built in (found by
// walking up from the binary), else of the source tree it was configured from.
std::string DefaultBugsDir();

}  // namespace smallfix::bench

#endif  // SMALLFIX_ENGINE_BENCH_SMALLFIX_BUG_SPEC_H_
