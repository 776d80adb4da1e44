// The fourth stage of a repair: the ranked candidates validated in order.
#include <algorithm>
#include <string_view>
#include <vector>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/repair/repair_stages.h"
#include "engine/repair/validation_order.h"

namespace smallfix {
namespace {

// "[2/7] guard.none-continue: plausible (syntax:passed ...) 3.1 s", as each candidate ends.
std::string FinishedLine(size_t i, size_t n, const Candidate& candidate,
                         const ValidationResult& result) {
  std::string stages;
  for (const StageResult& stage : result.stages)
    stages += absl::StrFormat(" %s:%s", StageKindName(stage.kind), StageStatusName(stage.status));
  return absl::StrFormat("[%d/%d] %s: %s (%s) %.1f s", i + 1, n, candidate.template_id,
                         ValidationStatusName(result.status),
                         stages.empty() ? "" : stages.substr(1), result.seconds);
}

bool Plausible(const ValidatedCandidate& c) {
  return c.validation.status == ValidationStatus::kPlausible;
}

// Moves each plausible candidate that is not weak ahead of the first weak plausible one (the
// look-ahead found it), so that it is the patch reported, and says which it passed over.
void PreferStrongPlausible(RepairReport& report) {
  std::vector<ValidatedCandidate>& all = report.candidates;
  const size_t weak_at = std::find_if(all.begin(), all.end(), Plausible) - all.begin();
  if (weak_at == all.size() || !all[weak_at].scored.candidate.weak) return;
  const Candidate passed_over = all[weak_at].scored.candidate;
  size_t at = weak_at;
  for (size_t i = weak_at + 1; i < all.size(); ++i) {
    if (!Plausible(all[i]) || all[i].scored.candidate.weak) continue;
    std::rotate(all.begin() + at, all.begin() + i, all.begin() + i + 1);
    ++at;
  }
  if (at == weak_at) return;  // none found: the weak one is the answer
  report.notes.push_back(Concat(
      passed_over.template_id, " at ", passed_over.file, ":", std::to_string(passed_over.line),
      " passed the tests too, but its template is weak (its patches often pass tests that do not "
      "reach the fault), so ",
      all[weak_at].scored.candidate.template_id, ", found after it, comes first"));
}

// Validates the candidates in the session's workspaces, in their ranked order
// (validation_order.h), and records the outcomes in `report`.
void ValidateCandidates(const RepairRequest& request, const ValidationSession& session,
                        RepairReport& report, RepairClock::time_point start) {
  const size_t n = report.candidates.size();
  ValidationOrderOptions options;
  options.top = request.top;
  options.jobs = request.jobs;
  options.cancel = request.cancel;
  options.weak = [&](size_t i) { return report.candidates[i].scored.candidate.weak; };
  options.weak_lookahead = static_cast<size_t>(std::max(0, request.weak_lookahead));
  options.started = [&](size_t i) {
    if (!request.progress) return;
    const Candidate& candidate = report.candidates[i].scored.candidate;
    request.progress(absl::StrFormat("[%d/%d] %s at %s:%d: validating (%.1f s elapsed)", i + 1, n,
                                     candidate.template_id, candidate.file, candidate.line,
                                     SecondsSince(start)));
  };
  options.finished = [&](size_t i, const ValidationResult& result) {
    if (result.status == ValidationStatus::kPlausible && report.first_plausible_seconds < 0) {
      report.first_plausible_seconds = SecondsSince(start);
    }
    if (request.progress)
      request.progress(FinishedLine(i, n, report.candidates[i].scored.candidate, result));
  };
  auto validate = [&](size_t i, const std::atomic<bool>* stop) {
    return session.Validate(absl::StrFormat("c%d", i + 1),
                            report.candidates[i].scored.candidate.changes, stop);
  };
  ValidationOrderOutcome outcome = ValidateInOrder(n, validate, options);
  for (size_t i = 0; i < n; ++i) report.candidates[i].validation = std::move(outcome.results[i]);
  report.validated += outcome.validated;
  PreferStrongPlausible(report);
}

// A failing test command that the shell could not find or run (exit 127 or 126) reproduces
// nothing: every candidate would fail it the same way.
absl::Status CheckCommandRan(const TestRun& run, const std::string& command) {
  if (run.summary != "exit 127" && run.summary != "exit 126") return absl::OkStatus();
  std::string_view output = run.output;
  while (!output.empty() && output.back() == '\n') output.remove_suffix(1);
  const size_t last = output.rfind('\n');
  return absl::InvalidArgumentError(
      Concat("the failing test command `", command, "` could not run (", run.summary,
             ": not found or not executable): ",
             output.substr(last == std::string_view::npos ? 0 : last + 1)));
}

// The other tests run once on the unpatched tree, tracing the best site's line, when the
// failing run left facts and a template reads them: passing runs at the line are what tells a
// guard that separates the runs from a guess. One more run of those tests, before the first
// candidate's.
std::vector<std::string> TracedPassingRuns(const RepairRequest& request,
                                           const ValidationSession& session,
                                           const RepairResources& resources,
                                           const std::string& facts_json, RepairReport& report) {
  const ValidationPlan& plan = session.plan();
  if (facts_json.empty() || plan.runner.facts_trace.empty() || plan.other_tests.empty() ||
      !resources.reads_facts) {
    return {};
  }
  if (request.progress) {
    request.progress(
        Concat("tracing ", plan.runner.facts_trace, " in the other tests on the unpatched tree"));
  }
  absl::StatusOr<std::vector<std::string>> traced = session.TraceOtherTests(request.cancel);
  if (!traced.ok()) {
    report.notes.push_back(Concat("the other tests could not be traced for runtime facts: ",
                                  traced.status().message()));
    return {};
  }
  return *std::move(traced);
}

}  // namespace

absl::Status ValidateRanked(const RepairRequest& request, ValidationSession& session,
                            const std::vector<Site>& sites, const RepairResources& resources,
                            RepairReport& report, RepairClock::time_point start) {
  absl::StatusOr<TestRun> reproduced = session.Reproduction();
  if (!reproduced.ok()) return reproduced.status();
  if (absl::Status ran = CheckCommandRan(*reproduced, session.plan().failing_test); !ran.ok())
    return ran;
  report.reproduction_seconds = reproduced->seconds;
  report.reproduced = !reproduced->passed && !reproduced->cancelled;
  report.reproduction = reproduced->summary;
  if (reproduced->cancelled) {
    report.cancelled = true;
  } else if (!report.reproduced) {
    report.notes.push_back(Concat("cannot reproduce: `", session.plan().failing_test,
                                  "` passes on the unpatched tree"));
  } else {
    const std::vector<std::string> traced =
        TracedPassingRuns(request, session, resources, reproduced->facts_json, report);
    absl::Status added =
        AddFactCandidates(request, reproduced->facts_json, traced, sites, resources, report);
    if (!added.ok()) return added;
    if (request.progress && report.facts && report.facts->added > 0) {
      request.progress(absl::StrFormat("%d candidate(s) from the failing run's facts (%.1f s)",
                                       report.facts->added, SecondsSince(start)));
    }
    ValidateCandidates(request, session, report, start);
  }
  report.cancelled |= request.cancel != nullptr && request.cancel->load();
  return absl::OkStatus();
}

}  // namespace smallfix
