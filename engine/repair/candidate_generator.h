#ifndef SMALLFIX_ENGINE_REPAIR_CANDIDATE_GENERATOR_H_
#define SMALLFIX_ENGINE_REPAIR_CANDIDATE_GENERATOR_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/facts/runtime_facts.h"
#include "engine/index/repo_index.h"
#include "engine/localize/localization.h"
#include "engine/patterns/catalogue.h"
#include "engine/patterns/match.h"
#include "engine/rank/ranker.h"

namespace smallfix {

struct GenerateOptions {
  // At most this many candidates per site (after dedupe), the best first: templates whose
  // symptom matched, then by prior, then by the fewest lines changed. 0: no cap. A template
  // whose symptom did not match shares its prior among its candidates at a site: the k-th
  // (from 0) ranks with prior / (1 + k), and Candidate::prior says so.
  int max_per_site = 12;
  // Also try templates whose symptom does not match (ranked after those that do). With no
  // symptom at all, every template is tried this way. Not at sites in test files, where only
  // templates that answer the symptom apply.
  bool any_symptom = true;
  // For a None symptom (`'NoneType' object has no attribute ...`), also repair where the
  // None came from: the variable's assignment, the callee that returned it (OriginsOf); for a
  // tensor that kept its graph or has the wrong dtype or device, where it (or the container's
  // element) was assigned (CauseSites).
  bool follow_cause = true;
  // Site score of such a cause site, per hop from the failure.
  double cause_site_factor = 0.7;
  // The sites are all lines of one fix (perfect localization at every line it changes, as
  // realfix gives them): where a file has two or more, also generate candidates that edit
  // several at once (MultiSiteCandidates) and count each candidate's sites_covered there.
  bool one_fix = false;
  // What the failing run knew (engine/facts): the look-ups that read it hold only with it.
  const RuntimeFacts* runtime = nullptr;
  // Only the templates whose look-ups read the facts (ReadsRuntimeFacts): the pass after the
  // reproduction, when the other templates' candidates are already made.
  bool runtime_templates_only = false;
};

// Matches every template of `catalogue` at every site (and, for a None, where it came from)
// and returns the candidates, each with its diff and size; candidates whose results are the
// same code as an earlier one up to spacing within lines are dropped. With `one_fix`, the
// multi-site candidates of each file follow its sites' own. Files are read from
// `repo_root`; the repo is never written. A site whose file cannot be read is an error naming it.
absl::StatusOr<std::vector<ScoredCandidate>> GenerateCandidates(
    const std::string& repo_root, const std::vector<Site>& sites, const Symptom& symptom,
    const Catalogue& catalogue, const RepoIndex* index, const GenerateOptions& options = {});

// The sites where the bad value at `site` may have been made (see GenerateOptions::follow_cause),
// nearest first, when `symptom` is about a None or a tensor made wrong elsewhere; and, when the
// site is a `raise` under an `if` or `elif`, that header's line first (the check that chose it).
std::vector<Site> CauseSites(
    const Document& document, const Site& site, const Symptom& symptom, const RepoIndex* index,
    const std::function<absl::StatusOr<Document>(const std::string&)>& load, double factor);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_CANDIDATE_GENERATOR_H_
