#include "engine/repair/pipeline.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <future>
#include <optional>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/temp_dir.h"
#include "engine/index/repo_index.h"
#include "engine/junit/junit_reader.h"
#include "engine/localize/coverage_ranking.h"
#include "engine/localize/localizer.h"
#include "engine/localize/path_mapper.h"
#include "engine/localize/symptom.h"
#include "engine/patterns/catalogue.h"
#include "engine/rank/heuristic_ranker.h"
#include "engine/repair/rank_order.h"
#include "engine/repair/site_check.h"
#include "engine/repair/symptom_input.h"
#include "engine/vcs/repo_state.h"
#include "engine/vcs/run_sweep.h"
#include "validators/failure_capture.h"
#include "validators/process/child_env.h"
#include "validators/process/process_sweep.h"
#include "validators/process/python_env.h"
#include "validators/warm/warm_server.h"

namespace smallfix {
namespace {

// The warm server for this repair's test runs (warm_server.h), or nullptr when the plan asks
// for cold runs (--cold), runs on Slurm, or the server cannot even be launched (with a note).
// It is not waited for here: its start-up overlaps with candidate generation.
std::unique_ptr<WarmServer> StartWarmServer(const ValidationPlan& plan, const std::string& scratch,
                                            std::vector<std::string>& notes) {
  if (!plan.warm || plan.runner.kind == RunnerKind::kSlurm) return nullptr;
  const std::string dir = Concat(scratch, "/warm");
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  absl::StatusOr<std::map<std::string, std::string>> env =
      PythonEnvironment(Concat(dir, "/bin"), plan.interpreter);
  if (!env.ok()) return nullptr;  // the cold runs report the missing interpreter
  WarmServerOptions options;
  options.interpreter = plan.interpreter;
  options.env = plan.runner.env;
  options.pass_env = plan.runner.pass_env;
  for (const auto& [key, value] : *env) options.env[key] = value;
  options.dir = dir;
  absl::StatusOr<std::unique_ptr<WarmServer>> server = WarmServer::Start(options);
  if (!server.ok()) {
    notes.push_back(Concat("the warm server did not start (", server.status().message(),
                           "); test runs were cold"));
    return nullptr;
  }
  return *std::move(server);
}

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Validates the ranked candidates with ValidateCandidate, each in its own workspace under
// `scratch`, in rank order (rank_order.h), and records the outcomes in `report`.
void ValidateCandidates(const RepairRequest& request, const ValidationPlan& plan,
                        const std::string& scratch, RepairReport& report, Clock::time_point start) {
  const size_t n = report.candidates.size();
  RankOrderOptions options;
  options.top = request.top;
  options.jobs = request.jobs;
  options.cancel = request.cancel;
  options.started = [&](size_t i) {
    if (!request.progress) return;
    const Candidate& candidate = report.candidates[i].scored.candidate;
    request.progress(absl::StrFormat("[%d/%d] %s at %s:%d: validating (%.1f s elapsed)", i + 1, n,
                                     candidate.template_id, candidate.file, candidate.line,
                                     Since(start)));
  };
  options.finished = [&](size_t i, const ValidationResult& result) {
    if (result.status == ValidationStatus::kPlausible && report.first_plausible_seconds < 0) {
      report.first_plausible_seconds = Since(start);
    }
    if (!request.progress) return;
    std::string stages;
    for (const StageResult& stage : result.stages)
      stages += absl::StrFormat(" %s:%s", StageKindName(stage.kind), StageStatusName(stage.status));
    request.progress(absl::StrFormat("[%d/%d] %s: %s (%s) %.1f s", i + 1, n,
                                     report.candidates[i].scored.candidate.template_id,
                                     ValidationStatusName(result.status),
                                     stages.empty() ? "" : stages.substr(1), result.seconds));
  };
  auto validate = [&](size_t i, const std::atomic<bool>* stop) {
    return ValidateCandidate(request.repo, scratch, absl::StrFormat("c%d", i + 1),
                             report.candidates[i].scored.candidate.changes, plan, stop);
  };
  RankOrderOutcome outcome = ValidateInRankOrder(n, validate, options);
  for (size_t i = 0; i < n; ++i) report.candidates[i].validation = std::move(outcome.results[i]);
  report.validated += outcome.validated;
}

// Coverage adds plausible sites that the traceback never named, so more of them are kept.
constexpr int kCoverageMaxSites = 5;

// Per-line Ochiai scores from one single-process run of the broadest test command (the first
// of the other tests normally runs the failing test and the passing ones, which Ochiai needs
// both of). Empty, with a note saying why, when the run fails or no test fails: the caller
// then ranks by the traceback alone.
LineScores CoverageScores(const RepairRequest& request, const NetworkPolicy& network,
                          Clock::time_point start, std::vector<std::string>& notes) {
  const ValidationPlan& plan = request.plan;
  const std::string command =
      !plan.other_tests.empty() ? plan.other_tests.front() : plan.failing_test;
  CaptureOptions options;
  options.time_limit_seconds = plan.runner.time_limit_seconds;
  options.coverage = true;
  options.interpreter = plan.interpreter;
  options.pass_env = plan.runner.pass_env;
  options.offline = !network.reproduction;
  options.cancel = request.cancel;
  if (request.progress) request.progress(Concat("running `", command, "` under coverage"));
  absl::StatusOr<FailureCapture> run = CaptureFailure(request.repo, command, options);
  if (!run.ok()) {
    notes.push_back(
        Concat("coverage: ", run.status().message(), "; ranked by the failure text alone"));
    return {};
  }
  for (const std::string& note : run->notes) notes.push_back(Concat("coverage: ", note));
  CaseTally tally;
  if (absl::StatusOr<std::vector<JUnitCase>> cases = ReadJUnit(run->junit_xml); cases.ok())
    tally = TallyCases(*cases);
  LineScores scores;
  if (!run->cancelled && !run->coverage_json.empty()) {
    absl::StatusOr<LineScores> ranked =
        OchiaiFromRun(request.repo, run->coverage_json, run->junit_xml);
    if (ranked.ok()) {
      scores = *std::move(ranked);
    } else {
      notes.push_back(Concat("coverage: ", ranked.status().message()));
    }
  }
  if (tally.failures == 0 || scores.empty()) {
    notes.push_back(
        Concat("coverage: `", command, "` showed no failing test under coverage",
               plan.runner.world_size > 1 ? " (it runs single-process, without ranks)" : "",
               "; ranked by the failure text alone"));
    return {};
  }
  if (request.progress) {
    request.progress(
        absl::StrFormat("ranking lines by coverage over %d tests (%d failing) (%.1f s)",
                        tally.tests, tally.failures, Since(start)));
  }
  return scores;
}

// The repository and the given sites, before anything runs: each error names what is wrong.
absl::Status CheckInputs(const RepairRequest& request) {
  std::error_code error;
  if (!std::filesystem::is_directory(request.repo, error)) {
    return absl::InvalidArgumentError(Concat("--repo ", request.repo, " is not a directory"));
  }
  if (absl::Status state = CheckRepoState(request.repo); !state.ok()) return state;
  for (const RepairSite& site : request.sites) {
    if (absl::Status file = CheckSiteFile(request.repo, site.file); !file.ok())
      return absl::InvalidArgumentError(Concat("--site ", file.message()));
  }
  return absl::OkStatus();
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

}  // namespace

const ValidatedCandidate* BestCandidate(const RepairReport& report, bool validated) {
  for (const ValidatedCandidate& candidate : report.candidates) {
    if (!validated || candidate.validation.status == ValidationStatus::kPlausible)
      return &candidate;
  }
  return nullptr;
}

absl::StatusOr<RepairReport> RunRepair(const RepairRequest& request) {
  const Clock::time_point start = Clock::now();
  if (absl::Status inputs = CheckInputs(request); !inputs.ok()) return inputs;
  RepairReport report;
  // The test processes run without secrets, and offline where asked and possible.
  std::vector<std::string> sandbox_notes;
  report.sandbox.withheld_env = WithheldFromChildren(request.plan.runner.pass_env);
  report.sandbox.slurm = request.plan.runner.kind == RunnerKind::kSlurm;
  report.sandbox.network = request.validate || request.coverage
                               ? ResolveNetworkPolicy(request.plan.network, sandbox_notes)
                               : request.plan.network;
  std::vector<RepairSite> sites = request.sites;
  if (sites.empty()) {
    if (request.failure_text.empty()) {
      return absl::InvalidArgumentError("nothing to repair: give --log, --issue or --site");
    }
    LocalizeOptions options;
    options.kind = request.failure_kind;
    options.max_sites = request.max_sites;
    std::vector<std::string> coverage_notes;
    if (request.coverage && !request.plan.failing_test.empty()) {
      options.coverage_scores =
          CoverageScores(request, report.sandbox.network, start, coverage_notes);
      if (!options.coverage_scores.empty())
        options.max_sites = std::max(options.max_sites, kCoverageMaxSites);
    }
    absl::StatusOr<Localization> localization =
        Localize(request.repo, request.failure_text, options);
    if (!localization.ok()) return localization.status();
    report.symptom = ToSymptomInput(localization->symptom);
    report.notes = request.input_notes;
    for (const std::string& note : localization->notes) report.notes.push_back(note);
    for (std::string& note : coverage_notes) report.notes.push_back(std::move(note));
    // Test files are reported as sites but never edited: the tests are the oracle that
    // validation trusts, and a patch that inverts an assertion would pass it.
    int test_sites = 0;
    for (const Site& site : localization->sites) {
      if (PathMapper::IsTestFile(site.file)) {
        ++test_sites;
      } else if (absl::Status file = CheckSiteFile(request.repo, site.file); !file.ok()) {
        report.notes.push_back(Concat("site not edited: ", file.message()));
      } else {
        sites.push_back({site.file, site.line, site.score});
      }
      report.sites.push_back({site.file, site.line, site.function, site.score, site.symptom,
                              site.symptom_class, site.ranks});
    }
    if (test_sites > 0) {
      report.notes.push_back(
          absl::StrFormat("%d site(s) in test files listed but not edited", test_sites));
    }
    if (sites.empty()) {
      report.notes.push_back(
          "no site to edit in the repo: the failure points only at tests or at files outside it");
    }
  } else {
    report.symptom = ClassifiedSymptomFromText(request.symptom_text);
    for (const RepairSite& site : sites) {
      report.sites.push_back({site.file,
                              site.line,
                              "",
                              site.score,
                              request.symptom_text,
                              report.symptom.symptom_class,
                              {}});
    }
  }

  // Validation starts before candidate generation: the warm server's start-up and the
  // reproduction of the failure overlap with it. (Declared in this order so that the
  // reproduction ends before the server, and the server before its scratch directory.)
  std::optional<TempDir> scratch;
  // A daemon a test started (setsid: out of the process group its time limit kills) still has
  // its working directory in a worktree: it is killed after the warm server stops and before
  // the scratch directory goes, on every return.
  struct Sweep {
    const std::optional<TempDir>& dir;
    ~Sweep() {
      if (dir) KillProcessesIn(dir->path());
    }
  } sweep{scratch};
  std::unique_ptr<WarmServer> warm;
  ValidationPlan plan = request.plan;
  plan.network = report.sandbox.network;
  std::atomic<bool> stop_reproduction{false};
  std::future<absl::StatusOr<TestRun>> reproduction;
  if (request.validate && !plan.failing_test.empty()) {
    // What runs killed outright left here: worktrees and branches in the repository, their
    // scratch directories. A live run's are left alone, so runs at once never disturb each other.
    if (std::string note = SweepNote(SweepBeforeRun(request.repo)); !note.empty())
      report.notes.push_back(note);
    absl::StatusOr<TempDir> created = TempDir::Create();
    if (!created.ok()) return created.status();
    scratch.emplace(*std::move(created));
    warm = StartWarmServer(plan, scratch->path(), report.notes);
    plan.runner.warm = warm.get();
    if (request.progress) request.progress("reproducing the failure on the unpatched tree");
    reproduction = std::async(std::launch::async, [&] {
      return Reproduce(request.repo, scratch->path(), plan, &stop_reproduction);
    });
  }

  absl::StatusOr<Catalogue> catalogue = Catalogue::Load(request.templates_dir);
  if (!catalogue.ok()) return catalogue.status();
  absl::StatusOr<RepoIndex> index = RepoIndex::Build(request.repo);
  if (!index.ok()) return index.status();
  absl::StatusOr<std::vector<ScoredCandidate>> candidates = GenerateCandidates(
      request.repo, sites, report.symptom, *catalogue, &*index,
      GenerateOptions{.max_per_site = request.max_candidates, .one_fix = request.one_fix});
  if (!candidates.ok()) return candidates.status();
  if (request.propose) {
    for (ScoredCandidate& extra : request.propose(sites, *candidates))
      candidates->push_back(std::move(extra));
  }
  const HeuristicRanker heuristic;
  (request.ranker != nullptr ? *request.ranker : heuristic).Rank(*candidates);
  if (request.one_fix) {
    // Every line given must change: a candidate that edits more of them comes first, and of
    // those that edit as many, the one that makes fewer independent choices (the same edit
    // repeated before two unrelated edits combined).
    std::stable_sort(candidates->begin(), candidates->end(),
                     [](const ScoredCandidate& a, const ScoredCandidate& b) {
                       if (a.sites_covered != b.sites_covered)
                         return a.sites_covered > b.sites_covered;
                       return a.parts < b.parts;
                     });
  }
  report.generated = static_cast<int>(candidates->size());
  for (ScoredCandidate& scored : *candidates) report.candidates.push_back({std::move(scored), {}});
  if (request.progress) {
    request.progress(absl::StrFormat("%d candidate(s) from %d template(s) at %d site(s) (%.1f s)",
                                     report.generated, catalogue->templates.size(), sites.size(),
                                     Since(start)));
  }

  if (reproduction.valid() && report.candidates.empty())
    stop_reproduction = true;  // nothing to validate
  if (request.validate && !report.candidates.empty()) {
    if (plan.failing_test.empty()) {
      return absl::InvalidArgumentError(
          "validation needs the failing test: pass --test CMD (or set `test:` in .smallfix.yaml), "
          "or --no-validate");
    }
    while (reproduction.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      if (request.cancel != nullptr && request.cancel->load()) stop_reproduction = true;
    }
    absl::StatusOr<TestRun> reproduced = reproduction.get();
    if (!reproduced.ok()) return reproduced.status();
    if (absl::Status ran = CheckCommandRan(*reproduced, plan.failing_test); !ran.ok()) return ran;
    report.reproduction_seconds = reproduced->seconds;
    report.reproduced = !reproduced->passed && !reproduced->cancelled;
    report.reproduction = reproduced->summary;
    if (reproduced->cancelled) {
      report.cancelled = true;
    } else if (!report.reproduced) {
      report.notes.push_back(
          Concat("cannot reproduce: `", plan.failing_test, "` passes on the unpatched tree"));
    } else {
      ValidateCandidates(request, plan, scratch->path(), report, start);
    }
    report.cancelled |= request.cancel != nullptr && request.cancel->load();
  }
  if (reproduction.valid()) reproduction.wait();
  if (warm != nullptr) {
    report.warm = !warm->failed();
    for (const std::string& note : warm->Notes()) report.notes.push_back(note);
  }
  for (std::string& note : sandbox_notes) report.notes.push_back(std::move(note));
  report.seconds = Since(start);
  return report;
}

}  // namespace smallfix
