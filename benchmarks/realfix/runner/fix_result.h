#ifndef SMALLFIX_BENCHMARKS_REALFIX_RUNNER_FIX_RESULT_H_
#define SMALLFIX_BENCHMARKS_REALFIX_RUNNER_FIX_RESULT_H_

#include <map>
#include <optional>
#include <string>

namespace smallfix::realfix {

// One repair run at a fix's fault lines.
struct Attempt {
  int candidates = 0;       // generated
  std::optional<int> rank;  // 1-based rank of the first candidate with the fixed file's AST
  std::string template_id;  // that candidate's template, "" when none
  // Candidates generated per template (after dedupe and the per-site cap): with
  // `template_id`, each template's precision on the split (scripts/realfix_priors.py).
  std::map<std::string, int> generated_by_template;
};

// What `smallfix bench --realfix` measured for one fix.
struct FixResult {
  std::string id, repo, family, split;
  bool has_symptom = false;
  // With the fix's symptom; for a fix without one, the same run as `without_symptom`, so both
  // conditions cover every fix.
  Attempt with_symptom;
  Attempt without_symptom;
  int files = 0;  // Python files materialised from the parent tree
  double seconds = 0;
  std::string error;  // set when the run itself failed (no mirror, no commit, ...)
};

}  // namespace smallfix::realfix

#endif  // SMALLFIX_BENCHMARKS_REALFIX_RUNNER_FIX_RESULT_H_
