#include "engine/repair/pipeline.h"

#include <filesystem>
#include <memory>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/rank/rank_candidates.h"
#include "engine/repair/apply_patch.h"
#include "engine/repair/llm_attach.h"
#include "engine/repair/repair_stages.h"
#include "engine/repair/site_check.h"
#include "engine/vcs/repo_state.h"
#include "validators/process/child_env.h"
#include "validators/process/network_sandbox.h"
#include "validators/validation_session.h"

namespace smallfix {
namespace {

// Generate and rank: the candidates at the sites in their one order, best first, in the report.
absl::Status GenerateAndRank(const RepairRequest& request, const std::vector<Site>& sites,
                             const RepairResources& resources, RepairClock::time_point start,
                             RepairReport& report) {
  absl::StatusOr<std::vector<ScoredCandidate>> candidates =
      GenerateAtSites(request, sites, report.symptom, resources);
  if (!candidates.ok()) return candidates.status();
  RankCandidates(request.ranker, request.one_fix, *candidates);
  report.generated = static_cast<int>(candidates->size());
  for (ScoredCandidate& scored : *candidates) report.candidates.push_back({std::move(scored), {}});
  if (request.progress) {
    request.progress(absl::StrFormat("%d candidate(s) from %d template(s) at %d site(s) (%.1f s)",
                                     report.generated, resources.catalogue.templates.size(),
                                     sites.size(), SecondsSince(start)));
  }
  return absl::OkStatus();
}

// The repository and the given sites, before anything runs: each error names what is wrong.
absl::Status CheckInputs(const RepairRequest& request) {
  std::error_code error;
  if (!std::filesystem::is_directory(request.repo, error)) {
    return absl::InvalidArgumentError(Concat("--repo ", request.repo, " is not a directory"));
  }
  if (absl::Status state = CheckRepoState(request.repo); !state.ok()) return state;
  for (const Site& site : request.sites) {
    if (absl::Status file = CheckSiteFile(request.repo, site.file); !file.ok())
      return absl::InvalidArgumentError(Concat("--site ", file.message()));
  }
  return absl::OkStatus();
}

}  // namespace

double SecondsSince(RepairClock::time_point start) {
  return std::chrono::duration<double>(RepairClock::now() - start).count();
}

const ValidatedCandidate* BestCandidate(const RepairReport& report, bool validated) {
  for (const ValidatedCandidate& candidate : report.candidates) {
    if (!validated || candidate.validation.status == ValidationStatus::kPlausible)
      return &candidate;
  }
  return nullptr;
}

namespace {

// The stages in their order, with the request as given (the model already attached).
absl::StatusOr<RepairReport> RunStages(const RepairRequest& request) {
  const RepairClock::time_point start = RepairClock::now();
  if (absl::Status inputs = CheckInputs(request); !inputs.ok()) return inputs;
  RepairReport report;
  // The test processes run without secrets, and offline where asked and possible.
  std::vector<std::string> sandbox_notes;
  report.sandbox.withheld_env = WithheldFromChildren(request.plan.runner.pass_env);
  report.sandbox.slurm = request.plan.runner.kind == RunnerKind::kSlurm;
  report.sandbox.network = request.validate || request.coverage || request.coverage_when_no_site
                               ? ResolveNetworkPolicy(request.plan.network, sandbox_notes)
                               : request.plan.network;
  absl::StatusOr<std::vector<Site>> sites = LocalizeSites(request, report);
  if (!sites.ok()) return sites.status();
  // Validation starts before generation: the warm server's start-up and the reproduction of
  // the failure overlap with it.
  std::unique_ptr<ValidationSession> session;
  if (request.validate && !request.plan.failing_test.empty()) {
    ValidationPlan plan = request.plan;
    plan.network = report.sandbox.network;
    // The passing tests of the reproduction record the values at the best site's line, which
    // guard synthesis sets against the failing run's (engine/facts/guard_synthesis.h).
    if (!sites->empty())
      plan.runner.facts_trace = absl::StrFormat("%s:%d", sites->front().file, sites->front().line);
    absl::StatusOr<std::unique_ptr<ValidationSession>> started =
        ValidationSession::Start(request.repo, plan, request.cancel, request.progress);
    if (!started.ok()) return started.status();
    session = *std::move(started);
    for (const std::string& note : session->start_notes()) report.notes.push_back(note);
  }
  absl::StatusOr<RepairResources> resources = LoadResources(request);
  if (!resources.ok()) return resources.status();
  if (absl::Status made = GenerateAndRank(request, *sites, *resources, start, report); !made.ok())
    return made;
  // With no candidate yet, the reproduction is still worth its wait when its facts may make one.
  const bool facts_may_add = session != nullptr && !sites->empty() && resources->reads_facts;
  if (session != nullptr && report.candidates.empty() && !facts_may_add)
    session->StopReproduction();
  if (request.validate && (!report.candidates.empty() || facts_may_add)) {
    if (session == nullptr) {
      return absl::InvalidArgumentError(
          "validation needs the failing test: pass --test CMD (or set `test:` in .smallfix.yaml), "
          "or --no-validate");
    }
    absl::Status validated = ValidateRanked(request, *session, *sites, *resources, report, start);
    if (!validated.ok()) return validated;
  }
  if (session != nullptr) {
    report.warm = session->warm();
    for (const std::string& note : session->WarmNotes()) report.notes.push_back(note);
  }
  for (std::string& note : sandbox_notes) report.notes.push_back(std::move(note));
  report.seconds = SecondsSince(start);
  return report;
}

// --apply: the best patch into the working tree, unless the run was interrupted.
void ApplyBest(const RepairRequest& request, bool with_llm, RepairReport& report) {
  const bool interrupted = request.cancel != nullptr && request.cancel->load();
  if (report.cancelled || (with_llm && interrupted)) return;
  const ValidatedCandidate* best = BestCandidate(report, request.validate);
  if (best == nullptr) return;
  report.apply_status =
      ApplyToWorkingTree(request.repo, best->scored, request.cancel, request.progress);
  if (report.apply_status.ok()) report.applied = best->scored.candidate.template_id;
}

absl::StatusOr<RepairReport> RunAttached(const RepairRequest& request, const AttachedLlm* llm) {
  absl::StatusOr<RepairReport> report = RunStages(request);
  if (!report.ok()) return report;
  if (llm != nullptr) llm->AddToReport(*report);
  if (request.apply) ApplyBest(request, llm != nullptr, *report);
  return report;
}

}  // namespace

absl::StatusOr<RepairReport> RunRepair(const RepairRequest& request) {
  if (request.llm.url.empty()) return RunAttached(request, nullptr);
  // The model ranks (and proposes) through a copy of the request that points into it.
  RepairRequest attached = request;
  const std::string& failure = !request.llm_failure.empty()    ? request.llm_failure
                               : !request.failure_text.empty() ? request.failure_text
                                                               : request.symptom_text;
  const AttachedLlm llm(request.llm, failure, attached, request.cancel);
  return RunAttached(attached, &llm);
}

}  // namespace smallfix
