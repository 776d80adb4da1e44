#ifndef SMALLFIX_ENGINE_BENCH_REALBUGS_REAL_BUG_RESULT_H_
#define SMALLFIX_ENGINE_BENCH_REALBUGS_REAL_BUG_RESULT_H_

#include <optional>
#include <string>
#include <vector>

namespace smallfix::realbugs {

// How one bug went: checked (--verify) or repaired. Plain data; results.h writes it out.
struct RealBugResult {
  std::string id, project, family, split;
  int processes = 1;
  std::string source;  // where the trees came from: "git" or "pypi"
  std::string error;   // the run itself failed (no tree, no venv): nothing else is meaningful

  // --verify: the failing tests fail on the buggy tree and pass on the fixed one, and the
  // regression and held-back tests pass on the fixed one.
  bool verified = false;
  std::string verify_detail;  // what did not hold, or "" when verified

  // A repair from the failing test's own output.
  double cold_seconds = 0;  // one cold run of the failing tests on the buggy tree
  std::string symptom;      // the last "XxxError: ..." line of that output, cut short
  int sites = 0, candidates = 0, validated = 0;
  std::optional<int> localization_rank;  // rank of the fixed function among the sites
  bool plausible = false;           // a patch made the failing tests and the regression tests pass
  bool correct = false;             // that patch has the upstream fix's syntax tree
  bool overfit = false;             // that patch fails a held-back test of the fix
  std::optional<int> correct_rank;  // the first candidate with the fix's syntax tree
  std::string fix_template;         // that candidate's template ("llm": the model proposed it)
  int llm_candidates = 0;           // --llm-propose: the model's edits among the candidates
  std::string llm_model;            // --llm: the model that answered ("" when none did)
  std::string plausible_template;   // the template of the first plausible patch
  std::string plausible_diff;       // its unified diff, to judge a plausible-but-wrong patch
  std::vector<std::string> notes;   // the repair's notes (what it could not use, and why)
  // The repair's runtime facts (engine/facts) were read, and the candidates only they made.
  bool facts_read = false;
  int fact_candidates = 0;
  double first_plausible_seconds = -1;
  double seconds = 0;         // the whole repair, trees and venv look-up excluded
  bool budget_spent = false;  // the repair was stopped at its time budget
  std::string outcome;  // correct, plausible, overfit, budget-spent, no-plausible, no-candidates,
                        // no-site, error
};

}  // namespace smallfix::realbugs

#endif  // SMALLFIX_ENGINE_BENCH_REALBUGS_REAL_BUG_RESULT_H_
