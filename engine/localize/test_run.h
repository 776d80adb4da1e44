#ifndef SMALLFIX_ENGINE_LOCALIZE_TEST_RUN_H_
#define SMALLFIX_ENGINE_LOCALIZE_TEST_RUN_H_

#include <atomic>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/localize/coverage_ranking.h"

namespace smallfix {

struct LocalizationRunOptions {
  std::string repo_root;
  std::string command;          // a shell command, run with /bin/sh -c in repo_root
  double timeout_seconds = 600; // the whole process group is killed after this
  bool coverage = false;        // pytest only: also rank lines by Ochiai over the tests
  // The interpreter that has pytest, coverage and torch (a pyenv python3 earlier on PATH
  // may lack them); pytest commands are run as `<python> -m pytest ...`.
  std::string python = "/usr/bin/python3";
  // Ctrl-C / SIGTERM: when it becomes true the running process group is killed and the run
  // returns what it had.
  const std::atomic<bool>* cancel = nullptr;
};

struct LocalizationRun {
  std::string output;       // stdout and stderr, tail
  std::string junit_xml;    // pytest's report, when the command is pytest
  LineScores coverage;      // Ochiai per line, with LocalizationRunOptions::coverage
  int exit_code = -1;
  bool timed_out = false;
  std::vector<std::string> notes;  // what did not work (coverage unavailable, ...)
};

// Runs a test command to capture its failure. When the command is pytest ("pytest ...",
// "python -m pytest ..."), it also asks for a JUnit report, for faulthandler stack dumps
// before the time limit (so a hang shows where it waits), and with `coverage` runs it under
// coverage.py with one context per test (`dynamic_context = test_function`) and reads the
// per-line contexts back (`coverage json --show-contexts`). Errors only when the command
// cannot be started. The run writes nothing into the repo: no bytecode, no pytest cache;
// reports go to a temporary directory that is removed afterwards.
absl::StatusOr<LocalizationRun> RunTestsForLocalization(const LocalizationRunOptions& options);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_TEST_RUN_H_
