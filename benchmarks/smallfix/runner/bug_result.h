#ifndef SMALLFIX_BENCHMARKS_SMALLFIX_RUNNER_BUG_RESULT_H_
#define SMALLFIX_BENCHMARKS_SMALLFIX_RUNNER_BUG_RESULT_H_

#include <optional>
#include <string>

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
  double seconds = 0;
  // How it ended, for reading the results: fixed | plausible-incorrect | no-plausible |
  // no-candidates | no-site | not-reproduced | error.
  std::string outcome;
  std::string template_id;  // the plausible patch's template, "" when none
  bool site_found = false;  // localization (or --perfect) put the bug's site among the sites
  std::string error;        // set when the run itself failed (outcome "error")
};

}  // namespace smallfix::bench

#endif  // SMALLFIX_BENCHMARKS_SMALLFIX_RUNNER_BUG_RESULT_H_
