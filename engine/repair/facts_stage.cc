// Between the reproduction and validation: what the failing run knew (engine/facts) makes the
// candidates that no source file holds (a guard on the value that really was None, the keyword
// the installed callee really takes) and moves those that edit nothing the run reached last.
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/facts/runtime_facts.h"
#include "engine/patterns/lookups/lookup.h"
#include "engine/rank/deletion_order.h"
#include "engine/rank/facts_order.h"
#include "engine/rank/rank_candidates.h"
#include "engine/repair/candidate_generator.h"
#include "engine/repair/repair_stages.h"

namespace smallfix {
namespace {

// The one-line account of what was read, for the report.
std::string Described(const RuntimeFacts& facts) {
  std::string out = facts.test.empty() ? "the failing run" : Concat("`", facts.test, "`");
  if (!facts.exception.type.empty()) out += Concat(" raised ", facts.exception.type);
  out += absl::StrFormat("; %d frame(s) in the repo", facts.frames.size());
  if (!facts.passing.empty()) {
    std::set<std::string> tests;
    for (const PassingFacts& hit : facts.passing) tests.insert(hit.test);
    out += absl::StrFormat(", %d passing test(s) at %s:%d", tests.size(),
                           facts.passing.front().file, facts.passing.front().line);
  }
  return out;
}

// The candidates' code, by diff: a facts candidate whose diff a static one already has is that
// candidate, which then says what fact it also rests on.
size_t MergeInto(std::vector<ScoredCandidate> found, std::vector<ValidatedCandidate>& candidates) {
  std::map<std::string, size_t> by_diff;
  for (size_t i = 0; i < candidates.size(); ++i) by_diff.emplace(candidates[i].scored.diff, i);
  size_t added = 0;
  for (ScoredCandidate& scored : found) {
    auto twin = by_diff.find(scored.diff);
    if (twin != by_diff.end()) {
      Bindings& kept = candidates[twin->second].scored.candidate.bindings;
      auto fact = scored.candidate.bindings.find("fact");
      if (fact != scored.candidate.bindings.end() && !kept.count("fact")) kept.insert(*fact);
      continue;
    }
    by_diff.emplace(scored.diff, candidates.size());
    candidates.push_back({std::move(scored), {}});
    ++added;
  }
  return added;
}

// The validation order: with new candidates, all of them in the one order first
// (rank_candidates.h); the candidates that only delete code after those that write some
// (deletion_order.h), and in each part the candidates that touch nothing the failing run
// touched after the rest (facts_order.h). A candidate at no
// localized site was made where generation followed the bad value back to (a cause site:
// the assignment or the call that made it, which may have returned before the exception and
// so be on no frame of the facts); it keeps its place.
void Reorder(const RepairRequest& request, const RuntimeFacts& facts,
             const std::vector<Site>& sites, bool rank, RepairReport& report) {
  std::vector<ScoredCandidate> scored;
  scored.reserve(report.candidates.size());
  for (ValidatedCandidate& c : report.candidates) scored.push_back(std::move(c.scored));
  if (rank) RankCandidates(request.ranker, request.one_fix, scored);
  DemoteDeletions(scored);
  std::set<std::pair<std::string, int>> localized;
  for (const Site& site : sites) localized.insert({site.file, site.line});
  DemoteUntouched(facts, scored, [&](const Candidate& c) {
    return !localized.count({c.file, c.line});
  });
  report.candidates.clear();
  for (ScoredCandidate& s : scored) report.candidates.push_back({std::move(s), {}});
}

}  // namespace

bool CatalogueReadsFacts(const Catalogue& catalogue) {
  for (const Template& t : catalogue.templates) {
    if (ReadsRuntimeFacts(t)) return true;
  }
  return false;
}

absl::Status AddFactCandidates(const RepairRequest& request, const std::string& facts_json,
                               const std::vector<std::string>& traced_json,
                               const std::vector<Site>& sites, const RepairResources& resources,
                               RepairReport& report) {
  FactsSummary& summary = report.facts.emplace();
  if (facts_json.empty()) {
    summary.note = "the failing run wrote no runtime facts (not a pytest run, or none failed)";
    Reorder(request, RuntimeFacts{}, sites, /*rank=*/false, report);
    return absl::OkStatus();
  }
  absl::StatusOr<RuntimeFacts> facts = ParseRuntimeFacts(facts_json);
  if (!facts.ok()) {
    summary.note = Concat("unreadable: ", facts.status().message());
    Reorder(request, RuntimeFacts{}, sites, /*rank=*/false, report);
    return absl::OkStatus();
  }
  // The other tests' passing runs at the traced line join the failing command's own.
  for (const std::string& json : traced_json) {
    absl::StatusOr<RuntimeFacts> traced = ParseRuntimeFacts(json);
    if (!traced.ok()) continue;  // one unreadable run leaves the others' evidence
    for (PassingFacts& passing : traced->passing) facts->passing.push_back(std::move(passing));
  }
  summary.read = true;
  summary.described = Described(*facts);
  if (!facts->capture_error.empty()) summary.note = Concat("capture: ", facts->capture_error);
  GenerateOptions options{.max_per_site = request.max_candidates, .one_fix = request.one_fix};
  options.runtime = &*facts;
  options.runtime_templates_only = true;
  absl::StatusOr<std::vector<ScoredCandidate>> found = GenerateCandidates(
      request.repo, sites, report.symptom, resources.catalogue, &resources.index, options);
  if (!found.ok()) return found.status();
  summary.added = static_cast<int>(MergeInto(*std::move(found), report.candidates));
  report.generated += summary.added;
  Reorder(request, *facts, sites, summary.added > 0, report);
  return absl::OkStatus();
}

}  // namespace smallfix
