#ifndef SMALLFIX_ENGINE_BENCH_REALBUGS_REAL_BUG_RUNNER_H_
#define SMALLFIX_ENGINE_BENCH_REALBUGS_REAL_BUG_RUNNER_H_

#include <atomic>
#include <string>

#include "engine/bench/realbugs/bug_tree.h"
#include "engine/bench/realbugs/real_bug.h"
#include "engine/bench/realbugs/real_bug_result.h"
#include "engine/repair/pipeline.h"
#include "engine/repair/validation_order.h"

namespace smallfix::realbugs {

struct RunOptions {
  TreeSource trees;
  double timeout_seconds = 300;  // per test command
  bool warm = true;              // repairs run their tests in a warm server
  std::string templates_dir;     // "" for the installed templates
  std::string outputs_dir;       // where each bug's failing output is written ("" nowhere)
  std::string from_outputs_dir;  // --localize-only: where each bug's saved output is read
  double budget_seconds = 600;   // a repair stops here, as on Ctrl-C (0: no budget)
  int weak_lookahead = kDefaultWeakLookahead;  // --weak-lookahead, as repair's
  LlmFlags llm;  // --llm: a model ranks, and with `llm.propose` writes, candidates (no URL: none)
  const std::atomic<bool>* cancel = nullptr;
};

// --verify: makes both trees and runs the failing tests on each (fail, then pass) and the
// regression and held-back tests on the fixed one (pass).
RealBugResult VerifyBug(const RealBug& bug, const RunOptions& options);

// Repairs the bug as a user would: runs its failing tests once, cold, on the buggy tree and
// hands that output alone to the repair pipeline with the failing and regression test
// commands; then scores the first plausible patch against the fixed tree (syntax tree) and
// the held-back tests, and the sites against the function the fix changed. Never throws;
// everything it makes lives under a temporary directory removed before it returns.
RealBugResult RepairBug(const RealBug& bug, const RunOptions& options);

// --localize-only: makes both trees, reads the failing output an earlier run saved
// (`from_outputs_dir`/<id>.txt) instead of running the tests, and ranks the sites with the
// same repair request as RepairBug, unvalidated: the same localization_rank, in seconds (a
// minute more when the output names only the tests and the tests run once under coverage).
RealBugResult LocalizeBug(const RealBug& bug, const RunOptions& options);

// The last line of a test run's output that names an exception ("XxxError: ..."), colours
// removed, cut to 160 characters: the symptom a result reports.
std::string SymptomLine(const std::string& output);

}  // namespace smallfix::realbugs

#endif  // SMALLFIX_ENGINE_BENCH_REALBUGS_REAL_BUG_RUNNER_H_
