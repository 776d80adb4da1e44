#ifndef SMALLFIX_VALIDATORS_VALIDATOR_H_
#define SMALLFIX_VALIDATORS_VALIDATOR_H_

#include <atomic>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/source/file_change.h"
#include "validators/process/network_sandbox.h"
#include "validators/process/python_env.h"
#include "validators/test_runner.h"
#include "validators/validation_status.h"

namespace smallfix {

// What proving a candidate means for one repair.
struct ValidationPlan {
  std::string failing_test;              // must fail on the unpatched tree and pass patched
  std::vector<std::string> other_tests;  // must still pass patched
  std::string build;                     // optional build command, run before the tests
  std::string interpreter = DefaultInterpreter();
  RunnerOptions runner;  // local or torchrun, world size, limits
  // Run pytest commands in a warm server (warm_server.h) that the repair starts once, instead
  // of a fresh interpreter per run; false (`--cold`) starts every run cold. Slurm runs and
  // commands that need a shell are cold either way.
  bool warm = true;
  // Which runs keep the network: candidates run offline unless --allow-network; the
  // reproduction (the user's own code) keeps it unless --no-network.
  NetworkPolicy network;
};

struct StageResult {
  StageKind kind = StageKind::kSyntax;
  StageStatus status = StageStatus::kPassed;
  double seconds = 0;
  std::string detail;  // one line
  std::string output;  // the tail of what it printed, for the report
};

struct ValidationResult {
  ValidationStatus status = ValidationStatus::kSkipped;
  std::vector<StageResult> stages;
  double seconds = 0;
};

// Runs the failing test on a pristine workspace of `repo_root` (under `scratch_dir`): the
// run that proves the failure is there to be fixed.
absl::StatusOr<TestRun> Reproduce(const std::string& repo_root, const std::string& scratch_dir,
                                  const ValidationPlan& plan, const std::atomic<bool>* cancel);

// Runs the other tests of `plan` (not the failing one) on a pristine workspace of `repo_root`
// with the runtime-facts capture tracing `plan.runner.facts_trace` ("FILE:LINE"): the values
// at that line in their passing tests, which guard synthesis sets against the failing run's.
// Returns each run's facts JSON (runs that wrote none are left out); nothing when the plan
// traces no line. Stops between runs once `cancel` is set.
absl::StatusOr<std::vector<std::string>> TraceOtherTests(const std::string& repo_root,
                                                         const std::string& scratch_dir,
                                                         const ValidationPlan& plan,
                                                         const std::atomic<bool>* cancel);

// Applies `changes` in a fresh workspace named `name` and runs the stages in order, stopping
// at the first that does not pass: syntax (tree-sitter), compile (the interpreter compiles the
// changed files), build (when the plan has one), test (the failing test passes), regression
// (one stage per other test; each passes). The workspace is removed before it returns.
ValidationResult ValidateCandidate(const std::string& repo_root, const std::string& scratch_dir,
                                   const std::string& name, const std::vector<FileChange>& changes,
                                   const ValidationPlan& plan, const std::atomic<bool>* cancel);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_VALIDATOR_H_
