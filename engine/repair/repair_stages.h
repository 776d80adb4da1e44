#ifndef SMALLFIX_ENGINE_REPAIR_REPAIR_STAGES_H_
#define SMALLFIX_ENGINE_REPAIR_REPAIR_STAGES_H_

#include <chrono>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/index/repo_index.h"
#include "engine/patterns/catalogue.h"
#include "engine/repair/pipeline.h"
#include "validators/validation_session.h"

// The stages RunRepair (pipeline.h) joins, in their order: localize the sites, generate the
// candidates there, rank them (engine/rank/rank_candidates.h), validate them in that order,
// report. Each takes the request and what the stage before it made; the report collects what
// the user is told along the way.
namespace smallfix {

using RepairClock = std::chrono::steady_clock;
double SecondsSince(RepairClock::time_point start);

// Localize: the sites to edit. Localizes the request's failure (with coverage when asked) or
// takes its --site lines (failure_input.h gathers the failure; a coverage run is sandboxed by
// the report's `sandbox.network`); sets the report's symptom, sites and notes. Sites in test
// files, or in files that cannot be edited (site_check.h), are reported but not returned: the
// tests are the oracle validation trusts.
absl::StatusOr<std::vector<Site>> LocalizeSites(const RepairRequest& request, RepairReport& report);

// What generation reads, loaded once per repair: the template catalogue and the repo index.
struct RepairResources {
  Catalogue catalogue;
  RepoIndex index;
  // Some template's look-ups read the failing run's facts (CatalogueReadsFacts): then the
  // reproduction is worth waiting for, and the other tests worth tracing.
  bool reads_facts = false;
};
absl::StatusOr<RepairResources> LoadResources(const RepairRequest& request);

// Generate: every template's candidates at the sites (and where a bad value came from), the
// per-site order and cap applied, then the request's proposed extras (--llm-propose).
absl::StatusOr<std::vector<ScoredCandidate>> GenerateAtSites(const RepairRequest& request,
                                                             const std::vector<Site>& sites,
                                                             const Symptom& symptom,
                                                             const RepairResources& resources);

// Facts: after the reproduction, the candidates of the templates whose look-ups read what the
// failing run knew (`facts_json`, docs/runtime-facts.md) at the same sites; one whose code is
// already a candidate gives it its `fact` binding. Then the validation order: candidates that
// only delete code after the rest (engine/rank/deletion_order.h), and in each part those that
// edit nothing the failing run reached last (engine/rank/facts_order.h). Sets the report's `facts`;
// facts that are missing or unreadable are a note there, not an error. `traced_json` holds the
// facts of the other tests' runs on the unpatched tree (ValidationSession::TraceOtherTests): their
// passing runs at the best site's line.
absl::Status AddFactCandidates(const RepairRequest& request, const std::string& facts_json,
                               const std::vector<std::string>& traced_json,
                               const std::vector<Site>& sites, const RepairResources& resources,
                               RepairReport& report);
// Whether any template of the catalogue reads the facts: only then is a repair with no
// candidate before the reproduction worth waiting for it.
bool CatalogueReadsFacts(const Catalogue& catalogue);

// Validate: waits for the session's reproduction, adds the facts' candidates, then validates the
// report's candidates in their ranked order until `request.top` are plausible; records outcomes,
// notes and times. Errors: the reproduction could not run, or its command was not found (exit 127
// or 126).
absl::Status ValidateRanked(const RepairRequest& request, ValidationSession& session,
                            const std::vector<Site>& sites, const RepairResources& resources,
                            RepairReport& report, RepairClock::time_point start);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_REPAIR_STAGES_H_
