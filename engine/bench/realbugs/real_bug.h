#ifndef SMALLFIX_ENGINE_BENCH_REALBUGS_REAL_BUG_H_
#define SMALLFIX_ENGINE_BENCH_REALBUGS_REAL_BUG_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace smallfix::realbugs {

// One line of benchmarks/realbugs/bugs.jsonl: a real bug of a neighbouring project that the
// regression test of its own fix reproduces (README.md there says what each field means).
struct RealBug {
  std::string id, project, repo, fix_commit, parent_commit, family, split, env;
  std::string source_root = ".";         // on PYTHONPATH, relative to the tree's root
  std::vector<std::string> pytest_args;  // before the test ids
  std::map<std::string, std::string> env_vars;
  std::vector<std::string> files;  // non-test files the fix changes
  std::vector<std::string> failing_tests, regression_tests, held_back_tests;
  std::string launcher;  // a command prefix that runs pytest on several processes, or ""
  int processes = 1;
  bool on_pypi = false;  // a PyPI release pair can make the trees without the history

  // The pytest command that runs `tests`, with the bug's own arguments, from the tree's root.
  std::string TestCommand(const std::vector<std::string>& tests) const;
  // PYTHONPATH, the Hub kept offline, and the bug's own variables.
  std::map<std::string, std::string> Environment() const;
};

// Reads bugs.jsonl; every field the runner needs must be there with the right type, else an
// error naming the line and field. `ids` (empty: all) and `split` ("": both) choose.
absl::StatusOr<std::vector<RealBug>> LoadRealBugs(const std::string& path,
                                                  const std::vector<std::string>& ids,
                                                  const std::string& split);

}  // namespace smallfix::realbugs

#endif  // SMALLFIX_ENGINE_BENCH_REALBUGS_REAL_BUG_H_
