#ifndef SMALLFIX_VALIDATORS_TEST_RUNNER_H_
#define SMALLFIX_VALIDATORS_TEST_RUNNER_H_

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "validators/slurm/slurm_options.h"

namespace smallfix {

class WarmServer;

// Where and how test commands run. kLocal: one process. kTorchrun: `world_size` ranks on
// this machine with torchrun's environment contract (RANK, LOCAL_RANK, WORLD_SIZE,
// LOCAL_WORLD_SIZE, MASTER_ADDR, and a MASTER_PORT that is free, chosen per run so parallel
// validations never collide; gloo on CPU, one GPU per rank via CUDA_VISIBLE_DEVICES when
// `gpus` lists devices). kSlurm: each run is a Slurm job of `world_size` tasks with the same
// environment contract, read from Slurm's task variables (slurm_test_runner.h). A new runner
// is one more kind here and one more case in MakeTestRunner.
enum class RunnerKind { kLocal, kTorchrun, kSlurm };

// "local", "torchrun", "slurm": the names the CLI, .smallfix.yaml and reports use.
std::string_view RunnerKindName(RunnerKind kind);
std::optional<RunnerKind> ParseRunnerKind(std::string_view name);

// Each rank is its own process group; a hang is killed whole at the time limit.
struct RunnerOptions {
  RunnerKind kind = RunnerKind::kLocal;
  int world_size = 1;
  double time_limit_seconds = 300;
  size_t memory_limit_bytes = 0;
  std::map<std::string, std::string> env;
  // Inherited variables that look secret are withheld from every process unless named here
  // (--pass-env; child_env.h).
  std::vector<std::string> pass_env;
  // Each run in a network namespace of its own with only loopback (network_sandbox.h); its
  // ranks share it. Slurm jobs run on the cluster's nodes and keep their network.
  bool offline = false;
  std::string gpus;    // "0,1" to give rank r device r; empty: CPU
  SlurmOptions slurm;  // kSlurm only
  const std::atomic<bool>* cancel = nullptr;
  // pytest runs on kLocal and kTorchrun: each rank is asked for the first failing test's runtime
  // facts (validators/facts/fact_plugin.h), with `facts_trace` ("FILE:LINE") the locals at that
  // line in passing tests too; TestRun::facts_json has them.
  bool capture_facts = false;
  std::string facts_trace;
  // Not owned. When set, kLocal and kTorchrun runs of pytest commands go to this warm server
  // (warm_runner.h) instead of a fresh interpreter each; the outcome is read the same way.
  WarmServer* warm = nullptr;
};

// What a test command did. For pytest commands the outcome is read from the JUnit XML it
// is asked to write (--junitxml), not only from its exit status: a run that collects no
// test, or whose XML shows a failure or an error, did not pass.
struct TestRun {
  bool passed = false;
  bool timed_out = false;
  bool cancelled = false;
  int tests = 0;           // from JUnit XML, summed over ranks; -1 when there was none
  int failures = 0;        // failures + errors
  std::string output;      // the run's output (ranks' lines prefixed "[rankN]:"), tail only
  std::string summary;     // one line: "2 passed", "1 failed (test_x)", "timed out after 60 s", ...
  std::string facts_json;  // with RunnerOptions::capture_facts: the lowest rank's, or ""
  double seconds = 0;
};

// Runs test commands (shell command lines) in a directory, the way one kind of runner
// does: the seam between validation and processes, after the command runners of build
// tools (one interface, a local and a distributed implementation). Run errors only for
// not being able to start; a command that fails, hangs or is cancelled is a TestRun.
class TestRunner {
 public:
  virtual ~TestRunner() = default;
  virtual absl::StatusOr<TestRun> Run(const std::string& dir, const std::string& command) const = 0;
};

// The runner of `kind`, with `options` (its kind field is ignored).
std::unique_ptr<TestRunner> MakeTestRunner(RunnerKind kind, const RunnerOptions& options);

// MakeTestRunner(options.kind, options)->Run(dir, command).
absl::StatusOr<TestRun> RunTestCommand(const std::string& dir, const std::string& command,
                                       const RunnerOptions& options);

// A TCP port on 127.0.0.1 that was free a moment ago.
absl::StatusOr<int> FreePort();

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_TEST_RUNNER_H_
