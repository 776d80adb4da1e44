#ifndef SMALLFIX_ENGINE_BENCH_REALFIX_FIX_RESULT_H_
#define SMALLFIX_ENGINE_BENCH_REALFIX_FIX_RESULT_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace smallfix::realfix {

// One part of a fix of several (fix_parts.h: one hunk, or one place in a line, applied alone), and
// the best rank of a candidate that makes that part alone: whether the generator has each part of a
// fix it misses.
struct PartOutcome {
  int line = 0;             // the part's first line in the parent (git's old_start)
  std::optional<int> rank;  // 1-based, among all candidates of the run
  std::string template_id;  // that candidate's template, "" when none
};

// One repair run at a fix's fault lines.
struct Attempt {
  int candidates = 0;       // generated
  std::optional<int> rank;  // 1-based rank of the first candidate with the fixed file's AST
  std::string template_id;  // that candidate's template, "" when none
  // Candidates generated per template (after dedupe and the per-site cap): with
  // `template_id`, each template's precision on the split (scripts/realfix_priors.py).
  std::map<std::string, int> generated_by_template;
  // For a fix with two or more parts that change the syntax tree, one per such part; else empty.
  std::vector<PartOutcome> parts;
  // --llm only: the model that ranked (as the server named it; "" when it was never reached),
  // the rank the fix had in the heuristic's order before the model spoke, and the edits the
  // model proposed that became candidates (template "llm").
  bool llm = false;
  std::string llm_model;
  std::optional<int> heuristic_rank;
  int llm_edits = 0;
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

#endif  // SMALLFIX_ENGINE_BENCH_REALFIX_FIX_RESULT_H_
