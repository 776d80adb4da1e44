#ifndef SMALLFIX_ENGINE_BENCH_REALFIX_FIX_RUNNER_H_
#define SMALLFIX_ENGINE_BENCH_REALFIX_FIX_RUNNER_H_

#include <atomic>
#include <string>

#include "engine/bench/realfix/fix_result.h"
#include "engine/bench/realfix/fix_spec.h"
#include "engine/bench/realfix/git_tree.h"
#include "engine/repair/llm_attach.h"

namespace smallfix::realfix {

struct RunOptions {
  std::string mirror_root;
  TreeScope scope = TreeScope::kAll;
  std::string templates_dir;  // "" for the installed templates
  int max_candidates = 12;    // per site, as repair --max-candidates (0: all)
  // --llm: the model ranks every run's candidates, shown the fix's symptom (or no failure at
  // all), and with llm.propose > 0 adds its own edits; never shown the fix's description.
  LlmFlags llm;
  const std::atomic<bool>* cancel = nullptr;
};

// Materialises the fix's parent tree under a temporary directory, repairs at its fault lines
// without validation (as `repair --site ... --no-validate`), with the symptom and without, and
// ranks the candidates whose patched file has the fixed file's syntax tree. Never throws and
// never writes to the mirror; a failure of the run is recorded in the result's `error`.
FixResult RunFix(const FixSpec& spec, const RunOptions& options);

}  // namespace smallfix::realfix

#endif  // SMALLFIX_ENGINE_BENCH_REALFIX_FIX_RUNNER_H_
