#ifndef SMALLFIX_ENGINE_BENCH_SMALLFIX_BUG_RUNNER_H_
#define SMALLFIX_ENGINE_BENCH_SMALLFIX_BUG_RUNNER_H_

#include <atomic>
#include <string>

#include "engine/bench/smallfix/bug_result.h"
#include "engine/bench/smallfix/bug_spec.h"
#include "engine/repair/llm_attach.h"
#include "validators/process/python_env.h"
#include "validators/test_runner.h"

namespace smallfix::bench {

struct BenchOptions {
  // Perfect localization: repair at bug.yaml's site, with the symptom the issue shows.
  bool perfect = false;
  // Issue mode only: also rank lines by coverage over the bug's tests (repair --coverage).
  bool coverage = false;
  double timeout_seconds = 0;  // per test command; 0: bug.yaml's timeout
  std::string templates_dir;   // "" for the installed templates
  std::string interpreter = DefaultInterpreter();
  const std::atomic<bool>* cancel = nullptr;
  // Repairs run their tests in a warm server (ValidationPlan::warm); false: bench --cold.
  bool warm = true;
  // bench --llm: rank (and with llm.propose > 0 also propose) with an OpenAI-compatible server.
  LlmFlags llm;
  // bench --runner slurm: every bug's tests run as Slurm jobs (multi-rank bugs with their
  // world size), with these settings; job names start with smallfix-<bug id>. kLocal or
  // kTorchrun: one-rank bugs run as one process and multi-rank bugs torchrun-style.
  RunnerKind runner = RunnerKind::kTorchrun;
  SlurmOptions slurm;
};

// Repairs one bug as a user would, from its issue.md alone (or at its site with
// `perfect`): copies project/ into a fresh git repository under a temporary directory,
// runs the repair pipeline with the bug's test commands (torchrun-style ranks when its
// world size is 2 or more, or Slurm jobs with options.runner kSlurm) and stops at the first
// plausible patch; then scores the candidates against fix.diff (same AST) and the plausible one
// against the held-back tests. Never throws and never writes under the bug's directory; a failure
// of the run itself is recorded in the result's `error`.
BugResult RunBug(const BugSpec& spec, const BenchOptions& options);

}  // namespace smallfix::bench

#endif  // SMALLFIX_ENGINE_BENCH_SMALLFIX_BUG_RUNNER_H_
