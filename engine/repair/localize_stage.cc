// The first stage of a repair: the sites to edit, from the failure or from --site.
#include <algorithm>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/localize/localizer.h"
#include "engine/localize/path_mapper.h"
#include "engine/localize/symptom.h"
#include "engine/repair/failure_input.h"
#include "engine/repair/repair_stages.h"
#include "engine/repair/site_check.h"

namespace smallfix {
namespace {

// Coverage adds plausible sites that the traceback never named, so more of them are kept.
constexpr int kCoverageMaxSites = 5;

// The request's failure as localization reads it: its text and kind, and with --coverage
// the scores of one run of the broadest test command (the first of the other tests normally
// runs the failing test and the passing ones, which Ochiai needs both of), sandboxed as the
// reproduction is (`network`).
FailureSource SourceOf(const RepairRequest& request, const NetworkPolicy& network) {
  const ValidationPlan& plan = request.plan;
  FailureSource source;
  source.text = request.failure_text;
  source.kind = request.failure_kind;
  source.coverage = request.coverage && !plan.failing_test.empty();
  source.coverage_test = !plan.other_tests.empty() ? plan.other_tests.front() : plan.failing_test;
  source.world_size = plan.runner.world_size;
  source.run.time_limit_seconds = plan.runner.time_limit_seconds;
  source.run.interpreter = plan.interpreter;
  source.run.pass_env = plan.runner.pass_env;
  source.run.env = plan.runner.env;
  source.run.offline = !network.reproduction;
  source.run.cancel = request.cancel;
  source.progress = request.progress;
  return source;
}

// The failure localized, with its notes: the input's, then localization's.
struct Localized {
  Localization localization;
  std::vector<std::string> notes;
};

absl::StatusOr<Localized> LocalizeFrom(const RepairRequest& request, const FailureSource& source) {
  absl::StatusOr<FailureInput> input = GatherFailure(request.repo, source);
  if (!input.ok()) return input.status();
  LocalizeOptions options = LocalizeOptionsFor(*input, request.max_sites);
  if (!options.coverage_scores.empty())
    options.max_sites = std::max(options.max_sites, kCoverageMaxSites);
  absl::StatusOr<Localization> localization = Localize(request.repo, input->text, options);
  if (!localization.ok()) return localization.status();
  Localized localized;
  localized.notes = localization->notes;
  localized.localization = *std::move(localization);
  for (std::string& note : input->notes) localized.notes.push_back(std::move(note));
  return localized;
}

// Whether any site is one repair may edit (outside the tests).
bool NamesCodeSite(const Localization& localization) {
  return std::any_of(localization.sites.begin(), localization.sites.end(),
                     [](const Site& site) { return !PathMapper::IsTestFile(site.file); });
}

// The sites localization finds in the failure text. When the text names only the tests (an
// assertion in the test, the usual shape of a wrong result) and the request may run them, the
// lines are ranked again by coverage over the tests' pass/fail: without it there is nothing
// to edit.
absl::StatusOr<std::vector<Site>> SitesFromFailure(const RepairRequest& request,
                                                   RepairReport& report) {
  if (request.failure_text.empty()) {
    return absl::InvalidArgumentError("nothing to repair: give --log, --issue or --site");
  }
  FailureSource source = SourceOf(request, report.sandbox.network);
  absl::StatusOr<Localized> localized = LocalizeFrom(request, source);
  if (!localized.ok()) return localized.status();
  if (!source.coverage && request.coverage_when_no_site && !request.plan.failing_test.empty() &&
      !NamesCodeSite(localized->localization)) {
    source.coverage = true;
    absl::StatusOr<Localized> covered = LocalizeFrom(request, source);
    if (!covered.ok()) return covered.status();
    localized = *std::move(covered);
    localized->notes.insert(localized->notes.begin(),
                            "the failure names only the tests: lines ranked by coverage too");
  }
  report.symptom = localized->localization.symptom;
  report.notes = request.input_notes;
  for (std::string& note : localized->notes) report.notes.push_back(std::move(note));
  std::vector<Site> sites;
  int test_sites = 0;
  for (const Site& site : localized->localization.sites) {
    if (PathMapper::IsTestFile(site.file)) {
      ++test_sites;
    } else if (absl::Status file = CheckSiteFile(request.repo, site.file); !file.ok()) {
      report.notes.push_back(Concat("site not edited: ", file.message()));
    } else {
      sites.push_back(site);
    }
    report.sites.push_back(site);
  }
  if (test_sites > 0) {
    report.notes.push_back(
        absl::StrFormat("%d site(s) in test files listed but not edited", test_sites));
  }
  if (sites.empty()) {
    report.notes.push_back(
        "no site to edit in the repo: the failure points only at tests or at files outside it");
  }
  return sites;
}

}  // namespace

absl::StatusOr<std::vector<Site>> LocalizeSites(const RepairRequest& request,
                                                RepairReport& report) {
  if (request.sites.empty()) return SitesFromFailure(request, report);
  report.symptom = ClassifiedSymptomFromText(request.symptom_text);
  for (Site site : request.sites) {
    site.symptom = request.symptom_text;
    site.symptom_class = report.symptom.symptom_class;
    report.sites.push_back(std::move(site));
  }
  return request.sites;
}

}  // namespace smallfix
