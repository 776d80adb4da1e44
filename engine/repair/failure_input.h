#ifndef SMALLFIX_ENGINE_REPAIR_FAILURE_INPUT_H_
#define SMALLFIX_ENGINE_REPAIR_FAILURE_INPUT_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/localize/coverage_ranking.h"
#include "engine/localize/localization.h"
#include "validators/failure_capture.h"

namespace smallfix {

// Where a failure comes from, as `localize` and `repair` take it. One of: `text` (already read:
// a file a flag named, the bot's issue, a benchmark's run output), `path` (a file, of which at
// most LocalizeOptions::max_input_bytes are read, from its end) or `test` (a command run once in
// the repo; its output is the failure).
struct FailureSource {
  std::string text;
  std::string path;
  std::string test;
  FailureKind kind = FailureKind::kAuto;  // of `text` or `path`; a test run's is kAuto
  std::string junit_path;  // JUnit XML of the same run, beside `text` or `path` ("": none)
  // Per-line coverage (Ochiai) to rank by as well: with `test`, that run is made under
  // coverage; otherwise `coverage_test` is run once under coverage for its scores alone
  // ("": none), and a run that shows no failing test leaves them out with a note.
  bool coverage = false;
  std::string coverage_test;
  int world_size = 1;  // the tests' ranks (the coverage run is single-process: its note says so)
  CaptureOptions run;  // time limit, interpreter and cancellation of either run
  std::function<void(const std::string&)> progress;  // may be empty
};

// What localization reads: the failure text and its kind, the run's JUnit XML, the coverage
// scores, and notes on what could not be used.
struct FailureInput {
  std::string text;
  FailureKind kind = FailureKind::kAuto;
  std::string junit_xml;
  LineScores coverage;
  std::vector<std::string> notes;
  bool passed = false;     // `test` ran and passed: there is no failure
  bool cancelled = false;  // `test` was stopped by Ctrl-C or SIGTERM
};

// The one way `localize` and `repair` gather a failure. Errors: a file that cannot be read
// (named), a test command that cannot be started.
absl::StatusOr<FailureInput> GatherFailure(const std::string& repo, const FailureSource& source);

// The options Localize reads the input with: its kind, JUnit XML and coverage scores.
LocalizeOptions LocalizeOptionsFor(const FailureInput& input, int max_sites);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_FAILURE_INPUT_H_
