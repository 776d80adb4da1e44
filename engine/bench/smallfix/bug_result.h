#ifndef SMALLFIX_ENGINE_BENCH_SMALLFIX_BUG_RESULT_H_
#define SMALLFIX_ENGINE_BENCH_SMALLFIX_BUG_RESULT_H_

#include <optional>
#include <string>
#include <vector>

namespace smallfix::bench {

// What `smallfix bench` measured for one bug.
struct BugResult {
  std::string id;
  std::string family;
  int world_size = 1;
  bool plausible = false;  // a patch passed the failing and the visible tests
  bool correct = false;    // that patch is the reference fix's AST or passes the held-back tests
  std::string correct_by;  // "ast" | "heldback" | "" when not correct
  // 1-based rank among all generated candidates of the first one with the reference fix's
  // AST, or of the plausible one when it passed the held-back tests; none when neither.
  std::optional<int> rank;
  int candidates = 0;  // generated
  int validated = 0;
  bool warm = false;  // its test runs went to the warm server to the end (RepairReport::warm)
  double seconds = 0;
  // How it ended, for reading the results: fixed | plausible-incorrect | no-plausible |
  // no-candidates | no-site | not-reproduced | error.
  std::string outcome;
  std::string template_id;  // the plausible patch's template, "" when none
  bool site_found = false;  // localization (or --perfect) put the bug's site among the sites
  std::string error;        // set when the run itself failed (outcome "error")
  // bench --llm only: the 1-based rank of the first candidate with the reference fix's AST in
  // the heuristic's order and in the final (LLM-mixed) order of the same run; none when no
  // candidate has it. And what the LLM did (its notes).
  bool llm = false;
  std::string llm_model;  // as asked ("" when the server was never reached)
  std::optional<int> heuristic_rank;
  std::optional<int> llm_rank;
  int ranked = 0;              // candidates in the final list
  int correct_candidates = 0;  // of them, with the reference fix's AST (for the random baseline)
  std::vector<std::string> llm_notes;
};

}  // namespace smallfix::bench

#endif  // SMALLFIX_ENGINE_BENCH_SMALLFIX_BUG_RESULT_H_
