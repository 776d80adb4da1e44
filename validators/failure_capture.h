#ifndef SMALLFIX_VALIDATORS_FAILURE_CAPTURE_H_
#define SMALLFIX_VALIDATORS_FAILURE_CAPTURE_H_

#include <atomic>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "validators/process/python_env.h"

namespace smallfix {

struct CaptureOptions {
  double time_limit_seconds = 600;  // the whole process group is killed after this
  bool coverage = false;            // pytest only: also record per-test line coverage
  // The interpreter `python` means (the policy of python_env.h).
  std::string interpreter = DefaultInterpreter();
  std::vector<std::string> pass_env;  // secret-looking names it may inherit (child_env.h)
  // Set for the run, as the validation runs get them (a project's PYTHONPATH); the interpreter's
  // own variables (python_env.h) win.
  std::map<std::string, std::string> env;
  bool offline = false;  // run in a network sandbox (network_sandbox.h)
  // pytest only: "FILE:LINE" whose locals the passing tests record into facts_json.
  std::string facts_trace;
  // When it becomes true the running process group is killed and the run returns what it had.
  const std::atomic<bool>* cancel = nullptr;
};

// What a run of a test command showed, for localization to read.
struct FailureCapture {
  std::string output;         // stdout and stderr, tail
  std::string junit_xml;      // pytest's report, when the command is pytest
  std::string coverage_json;  // `coverage json --show-contexts`, with CaptureOptions::coverage
  // The failing test's runtime facts (docs/runtime-facts.md), when the command is pytest and a
  // test failed; empty otherwise, with a note when the run failed without them.
  std::string facts_json;
  int exit_code = -1;
  bool timed_out = false;
  bool cancelled = false;
  std::vector<std::string> notes;  // what did not work (coverage unavailable, ...)
};

// Runs a test command once, single-process, in `dir` to capture its failure. When the
// command is pytest (pytest_command.h), it also asks for a JUnit report, for the runtime facts
// of the first failing test (validators/facts/fact_plugin.h), for faulthandler
// stack dumps before the time limit (so a hang shows where it waits), and with `coverage`
// runs it under coverage.py with one context per test (`dynamic_context = test_function`)
// and exports the per-line contexts. Errors only when the command cannot be started. The
// run writes nothing into `dir`: no bytecode, no pytest cache; reports go to a temporary
// directory that is removed afterwards.
absl::StatusOr<FailureCapture> CaptureFailure(const std::string& dir, const std::string& command,
                                              const CaptureOptions& options);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_FAILURE_CAPTURE_H_
