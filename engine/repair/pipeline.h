#ifndef SMALLFIX_ENGINE_REPAIR_PIPELINE_H_
#define SMALLFIX_ENGINE_REPAIR_PIPELINE_H_

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/localize/localization.h"
#include "engine/patterns/match.h"
#include "engine/rank/llm_client.h"
#include "engine/rank/ranker.h"
#include "engine/repair/candidate_generator.h"
#include "engine/repair/sandbox_summary.h"
#include "engine/repair/validation_order.h"
#include "validators/validator.h"

namespace smallfix {

// The --llm flags `repair`, `bench` and `bench --realfix` share.
struct LlmFlags {
  std::string url;    // "" : no model
  std::string model;  // "" : the server's first /v1/models entry
  std::string cache;  // directory of cached answers; "" keeps nothing
  double timeout_seconds = 60;
  int propose = 0;  // --llm-propose N: also ask for up to N edits (0: rank only)
};

struct RepairRequest {
  std::string repo;
  // Either a failure to localize (a log, pytest output, an issue body, JUnit XML) ...
  std::string failure_text;
  FailureKind failure_kind = FailureKind::kAuto;
  // What reading the input found worth saying (a log read from its tail); the report's notes
  // start with these.
  std::vector<std::string> input_notes;
  // ... or perfect localization: the sites, with --symptom's text.
  std::vector<Site> sites;
  std::string symptom_text;
  // The sites are all lines of one fix (GenerateOptions::one_fix): candidates that edit
  // several of them are generated too, and those that edit more of them rank first.
  bool one_fix = false;
  int max_sites = 3;  // localized sites to repair at
  // Also rank lines by coverage (Ochiai over the tests' pass/fail) before localizing: runs
  // the broadest test command once, single-process, under coverage.py. For failures whose
  // traceback shows only the symptom (a test assertion, the use of a bad value). Ignored with
  // `sites` or without a test command; raises max_sites to at least 5 when it yields scores.
  bool coverage = false;
  // When the failure names no site outside the tests (a test's own assertion: a wrong result),
  // localize again with coverage as above rather than end with nothing to edit. Needs a test
  // command; the request builder sets it where the tests may run (validation on).
  bool coverage_when_no_site = false;

  std::string templates_dir;  // "" for the installed templates
  bool validate = true;
  ValidationPlan plan;
  int top = 1;   // stop after this many plausible patches
  int jobs = 1;  // candidates validated at once
  // After a plausible patch from a weak template (a deletion, an early exit on a synthesized
  // condition: `weak: true`), this many more candidates are validated for one that is not
  // weak, which then comes first (validation_order.h).
  int weak_lookahead = kDefaultWeakLookahead;
  // Candidates kept per site (GenerateOptions::max_per_site); 0: all.
  int max_candidates = GenerateOptions().max_per_site;

  // --llm: a model ranks the candidates (and, with `llm.propose`, proposes edits); no URL: none,
  // and the output is exactly the heuristic's. It is shown `llm_failure`, else the failure
  // text, else the symptom. The API key comes from the environment.
  LlmFlags llm;
  std::string llm_failure;
  // --apply: write the best patch into the working tree (refused when it is dirty).
  bool apply = false;

  // Orders the candidates, best first; nullptr: the heuristic ranker (or, with `llm`, the
  // model's). Not owned.
  const Ranker* ranker = nullptr;
  // Extra candidates (--llm-propose), asked for after the templates matched, with the sites and
  // the template candidates (to drop duplicates); they are ranked and validated with the rest.
  std::function<std::vector<ScoredCandidate>(const std::vector<Site>& sites,
                                             const std::vector<ScoredCandidate>& candidates)>
      propose;

  // Progress lines for stderr ("[2/7] guard.none-continue: test ... 3.1 s").
  std::function<void(const std::string&)> progress;
  const std::atomic<bool>* cancel = nullptr;  // Ctrl-C / SIGTERM
};

struct ValidatedCandidate {
  ScoredCandidate scored;
  ValidationResult validation;  // status "skipped" when not validated
};

// What a repair read of the reproduction's runtime facts. Outside RepairReport: clang does not
// see a nested struct's default member initializers while the enclosing class is incomplete,
// so std::optional of it inside RepairReport would not be default-constructible there.
struct FactsSummary {
  bool read = false;      // the facts were read
  std::string described;  // "`tests/t.py::test_x` raised AttributeError; 2 frame(s) in the repo"
  std::string note;       // why there were none, or the capture's own error
  int added = 0;          // candidates only the facts made
};

struct RepairReport {
  Symptom symptom;
  std::vector<Site> sites;  // localization's (test files too), or the --site lines
  std::vector<ValidatedCandidate> candidates;  // best first
  int generated = 0;
  int validated = 0;
  double seconds = 0;
  // Validation: the unpatched run of the failing test.
  bool reproduced = false;
  std::string reproduction;  // its summary, or why it could not be reproduced
  double reproduction_seconds = 0;
  double first_plausible_seconds = -1;  // from the start, -1 when none
  bool warm =
      false;  // test runs went to the warm server (notes say when it failed and runs went cold)
  bool cancelled = false;
  SandboxSummary sandbox;  // what the test runs were kept from
  // Validation: what the reproduction's runtime facts gave (engine/repair/facts_stage.cc).
  std::optional<FactsSummary> facts;
  std::vector<std::string> notes;
  // With --llm: the model asked, what it cost (stats.llm in --json), its notes (also in
  // `notes`) and the candidates' diffs in the heuristic's order before it spoke.
  struct Llm {
    std::string model;
    LlmStats stats;
    std::vector<std::string> notes;
    std::vector<std::string> heuristic_order;
  };
  std::optional<Llm> llm;
  // --apply: the template of the patch written into the working tree ("": none), or why not.
  std::string applied;
  absl::Status apply_status;
};

// Localize (or take the sites), match every template there, rank, and validate in ranked
// order until `top` plausible patches are found (repair_stages.h has the stages). Writes the
// user's tree only with `apply`. Bad input (no such repo, an unreadable site, no test command
// to validate with) is an error.
absl::StatusOr<RepairReport> RunRepair(const RepairRequest& request);

// The first plausible candidate, or, without validation, the first; nullptr if none.
const ValidatedCandidate* BestCandidate(const RepairReport& report, bool validated);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_PIPELINE_H_
