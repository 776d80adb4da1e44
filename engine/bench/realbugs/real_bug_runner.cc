#include "engine/bench/realbugs/real_bug_runner.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/read_file.h"
#include "engine/base/temp_dir.h"
#include "engine/bench/smallfix/ast_match.h"
#include "engine/index/outline.h"
#include "engine/localize/failure_text.h"
#include "engine/repair/pipeline.h"
#include "engine/repair/request_builder.h"
#include "engine/source/diff.h"
#include "engine/source/document.h"
#include "validators/validator.h"

namespace smallfix::realbugs {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The test commands run from the tree's root with the bug's venv, one process per command:
// the tests that need several processes start them themselves (spawn, the project's launcher).
ValidationPlan PlanFor(const RealBug& bug, const std::string& interpreter,
                       const RunOptions& options) {
  ValidationPlan plan;
  plan.failing_test = bug.TestCommand(bug.failing_tests);
  if (!bug.regression_tests.empty()) plan.other_tests = {bug.TestCommand(bug.regression_tests)};
  plan.interpreter = interpreter;
  plan.warm = options.warm;
  plan.runner.kind = RunnerKind::kLocal;
  plan.runner.time_limit_seconds = options.timeout_seconds;
  plan.runner.env = bug.Environment();
  plan.runner.cancel = options.cancel;
  return plan;
}

// Everything a bug's run needs before it can start: a scratch directory, a tree, the venv.
struct Prepared {
  TempDir temp;
  std::string buggy, scratch, interpreter, source;
};

// `interpreter`: look the bug's venv up (every mode but --localize-only runs its tests).
absl::StatusOr<Prepared> Prepare(const RealBug& bug, const RunOptions& options,
                                 bool interpreter = true) {
  absl::StatusOr<TempDir> temp = TempDir::Create("smallfix-realbugs");
  if (!temp.ok()) return temp.status();
  Prepared prepared{*std::move(temp)};
  prepared.buggy = prepared.temp.path() + "/buggy";
  prepared.scratch = prepared.temp.path() + "/scratch";
  std::error_code error;
  fs::create_directories(prepared.scratch, error);
  if (error)
    return absl::InternalError(Concat("cannot make ", prepared.scratch, ": ", error.message()));
  if (interpreter) {
    absl::StatusOr<std::string> found = BugInterpreter(bug);
    if (!found.ok()) return found.status();
    prepared.interpreter = *found;
  }
  absl::StatusOr<std::string> source =
      MakeTree(bug, Side::kBuggy, prepared.buggy, options.trees, options.cancel);
  if (!source.ok()) return source.status();
  prepared.source = *source;
  return prepared;
}

// Makes the fixed tree beside the buggy one and reads what the fix changes in each file.
absl::StatusOr<std::vector<FileChange>> FixOf(const RealBug& bug, const Prepared& prepared,
                                              const RunOptions& options) {
  const std::string fixed = prepared.temp.path() + "/fixed";
  absl::StatusOr<std::string> made =
      MakeTree(bug, Side::kFixed, fixed, options.trees, options.cancel);
  if (!made.ok()) return made.status();
  std::vector<FileChange> fix;
  for (const std::string& file : bug.files) {
    absl::StatusOr<std::string> before = ReadFile(prepared.buggy + "/" + file);
    absl::StatusOr<std::string> after = ReadFile(fixed + "/" + file);
    fix.push_back({file, before.ok() ? *before : "", after.ok() ? *after : ""});
  }
  return fix;
}

// The repair a user would ask for with the failing run's `output`, as `smallfix repair --log`
// builds it (request_builder.h), with the bug's venv environment: one request for both the
// full run and --localize-only, so that both rank the same sites.
absl::StatusOr<RepairRequest> RequestFor(const Prepared& prepared, const std::string& output,
                                         const ValidationPlan& plan, const RunOptions& options) {
  RepairInputs inputs;
  inputs.repo = prepared.buggy;
  inputs.read_repo_config = false;
  inputs.failure_text = output;
  inputs.failure_kind = FailureKind::kLog;
  inputs.templates = options.templates_dir;
  inputs.tests = {plan.failing_test};
  for (const std::string& test : plan.other_tests) inputs.tests.push_back(test);
  inputs.python = plan.interpreter;
  inputs.cold = !plan.warm;
  inputs.timeout = plan.runner.time_limit_seconds;
  inputs.weak_lookahead = options.weak_lookahead;
  // The model is shown what a user has: the failing output.
  inputs.llm = options.llm;
  absl::StatusOr<RepairRequest> request = BuildRepairRequest(inputs, nullptr);
  if (!request.ok()) return request.status();
  request->plan.runner.env = plan.runner.env;
  request->plan.runner.cancel = plan.runner.cancel;
  return request;
}

// Why `run` of `what` on the `side` tree did not end as `should_pass` says, or "".
std::string Unexpected(const absl::StatusOr<TestRun>& run, bool should_pass,
                       const std::string& what, const std::string& side) {
  if (!run.ok())
    return Concat(what, " on the ", side, " tree could not run: ", run.status().message());
  if (run->timed_out) return Concat(what, " timed out on the ", side, " tree");
  if (run->passed == should_pass) return "";
  return Concat(what, should_pass ? " fail" : " pass", " on the ", side, " tree: ", run->summary);
}

// The innermost def or class around 1-based `line`, as a qualname ("<module>" outside any).
std::string EnclosingQualname(const Document& document, int line) {
  const uint32_t row = static_cast<uint32_t>(std::max(0, line - 1));
  TSNode node = document.root();
  TSNode found = {};
  bool have = false;
  for (bool descended = true; descended;) {
    descended = false;
    for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) {
      const TSNode child = ts_node_named_child(node, i);
      if (ts_node_start_point(child).row <= row && row <= ts_node_end_point(child).row) {
        const std::string_view type = ts_node_type(child);
        if (type == "function_definition" || type == "class_definition") found = child, have = true;
        node = child;
        descended = true;
        break;
      }
    }
  }
  return have ? QualnameOf(document, found) : "<module>";
}

using Place = std::pair<std::string, std::string>;  // file, qualname

// The functions (or classes, or <module>) whose lines the fix changes, in the buggy text.
std::set<Place> FixedPlaces(const std::vector<FileChange>& fix) {
  std::set<Place> places;
  for (const FileChange& change : fix) {
    absl::StatusOr<Document> document = Document::Parse(change.file, change.before);
    absl::StatusOr<std::vector<LineHunk>> hunks = LineHunks(change.before, change.after);
    if (!document.ok() || !hunks.ok()) continue;
    for (const LineHunk& hunk : *hunks) {
      // An insertion names the line after which it goes; a change its own lines.
      const int first = hunk.old_lines == 0 ? std::max(1, hunk.old_start) : hunk.old_start;
      const int last = hunk.old_lines == 0 ? first : hunk.old_start + hunk.old_lines - 1;
      for (int line = first; line <= last; ++line)
        places.insert({change.file, EnclosingQualname(*document, line)});
    }
  }
  return places;
}

std::optional<int> LocalizationRank(const RepairReport& report, const std::string& repo,
                                    const std::set<Place>& fixed) {
  for (size_t i = 0; i < report.sites.size(); ++i) {
    const Site& site = report.sites[i];
    absl::StatusOr<Document> document = Document::Load(repo + "/" + site.file, site.file);
    if (document.ok() && fixed.count({site.file, EnclosingQualname(*document, site.line)}))
      return static_cast<int>(i) + 1;
  }
  return std::nullopt;
}

}  // namespace

std::string SymptomLine(const std::string& output) {
  std::string found;
  size_t start = 0;
  while (start < output.size()) {
    size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    // pytest colours its output where it is asked to or the project's config says so.
    const std::string clean = StripAnsi(std::string_view(output.data() + start, end - start));
    std::string_view line(clean);
    // pytest marks the lines of the error it explains with "E" and spaces.
    if (line.starts_with("E ")) line.remove_prefix(1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    const size_t colon = line.find(": ");
    const std::string_view head = line.substr(0, colon);
    if (colon != std::string_view::npos &&
        (head.ends_with("Error") || head.ends_with("Exception")) &&
        head.find(' ') == std::string_view::npos) {
      found = std::string(line.substr(0, 160));
    }
    start = end + 1;
  }
  return found;
}

namespace {

std::string Outcome(const RealBugResult& r, const RepairReport& report) {
  if (r.correct) return "correct";
  if (r.overfit) return "overfit";
  if (r.plausible) return "plausible";
  if (r.budget_spent) return "budget-spent";
  if (report.sites.empty()) return "no-site";
  if (report.generated == 0) return "no-candidates";
  return "no-plausible";
}

// A stop flag that rises when `outer` does (Ctrl-C) or when `seconds` have passed: a bug's
// repair gets a budget, as a user's patience is one, and stops there like an interrupt.
class Budget {
 public:
  Budget(double seconds, const std::atomic<bool>* outer)
      : watcher_([this, seconds, outer] {
          const Clock::time_point end = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                           std::chrono::duration<double>(seconds));
          std::unique_lock<std::mutex> lock(mutex_);
          while (!done_ && !(outer != nullptr && outer->load())) {
            if (seconds > 0 && Clock::now() >= end) {
              spent_ = true;
              break;
            }
            wake_.wait_for(lock, std::chrono::milliseconds(200));
          }
          stop_ = true;
        }) {}
  ~Budget() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    watcher_.join();
  }
  const std::atomic<bool>* flag() const { return &stop_; }
  bool spent() const { return spent_; }

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::atomic<bool> stop_{false};
  std::atomic<bool> spent_{false};
  std::thread watcher_;  // last: it starts once the rest is ready
};

RealBugResult Start(const RealBug& bug) {
  RealBugResult result;
  result.id = bug.id;
  result.project = bug.project;
  result.family = bug.family;
  result.split = bug.split;
  result.processes = bug.processes;
  return result;
}

}  // namespace

RealBugResult VerifyBug(const RealBug& bug, const RunOptions& options) {
  RealBugResult result = Start(bug);
  absl::StatusOr<Prepared> prepared = Prepare(bug, options);
  if (!prepared.ok()) {
    result.error = std::string(prepared.status().message());
    result.outcome = "error";
    return result;
  }
  result.source = prepared->source;
  const std::string fixed = prepared->temp.path() + "/fixed";
  absl::StatusOr<std::string> made =
      MakeTree(bug, Side::kFixed, fixed, options.trees, options.cancel);
  if (!made.ok()) {
    result.error = std::string(made.status().message());
    result.outcome = "error";
    return result;
  }
  // Each run is cold (as a user's first run) in a fresh worktree of its tree.
  ValidationPlan plan = PlanFor(bug, prepared->interpreter, options);
  plan.warm = false;
  int runs = 0;
  auto run = [&](const std::string& tree, const std::vector<std::string>& tests) {
    ValidationPlan one = plan;
    one.failing_test = bug.TestCommand(tests);
    const std::string scratch = absl::StrFormat("%s/verify-%d", prepared->scratch, ++runs);
    fs::create_directories(scratch);
    return Reproduce(tree, scratch, one, options.cancel);
  };
  const Clock::time_point start = Clock::now();
  const absl::StatusOr<TestRun> before = run(prepared->buggy, bug.failing_tests);
  result.cold_seconds = before.ok() ? before->seconds : 0;
  if (before.ok()) result.symptom = SymptomLine(before->output);
  std::string why = Unexpected(before, false, "the failing tests", "buggy");
  if (why.empty() && before->tests == 0) why = "the failing tests ran no test on the buggy tree";
  // On the fixed tree every test of the bug passes: one run of them all (each start of a
  // framework's tests costs seconds of imports).
  std::vector<std::string> all;
  for (const auto* tests : {&bug.failing_tests, &bug.regression_tests, &bug.held_back_tests}) {
    for (const std::string& test : *tests) {
      if (std::find(all.begin(), all.end(), test) == all.end()) all.push_back(test);
    }
  }
  if (why.empty())
    why = Unexpected(run(fixed, all), true, "the failing, regression and held-back tests", "fixed");
  result.seconds = SecondsSince(start);
  result.verified = why.empty();
  result.verify_detail = why;
  result.outcome = result.verified ? "verified" : "not-verified";
  return result;
}

// Where the candidates, validated or not, have the fix (the first one's rank and template),
// and what the model wrote and who it was.
void FindFix(const RepairReport& report, const std::vector<FileChange>& fix,
             RealBugResult& result) {
  for (size_t i = 0; i < report.candidates.size(); ++i) {
    const Candidate& candidate = report.candidates[i].scored.candidate;
    result.llm_candidates += candidate.template_id == "llm";
    if (result.correct_rank || !bench::SameAstAsReference(fix, candidate.changes)) continue;
    result.correct_rank = static_cast<int>(i) + 1;
    result.fix_template = candidate.template_id;
  }
  if (report.llm) result.llm_model = report.llm->model;
}

// What the repair made of the bug, into `result`: its counts, where localization put the fix,
// and the first plausible patch (returned; nullptr when none) and whether it is the fix.
const ValidatedCandidate* Score(const RepairReport& report, const std::string& buggy,
                                const std::vector<FileChange>& fix, RealBugResult& result) {
  result.sites = static_cast<int>(report.sites.size());
  result.candidates = report.generated;
  result.notes = report.notes;
  result.validated = report.validated;
  result.first_plausible_seconds = report.first_plausible_seconds;
  result.localization_rank = LocalizationRank(report, buggy, FixedPlaces(fix));
  if (report.facts) {
    result.facts_read = report.facts->read;
    result.fact_candidates = report.facts->added;
  }
  FindFix(report, fix, result);
  const ValidatedCandidate* best = nullptr;
  for (const ValidatedCandidate& candidate : report.candidates) {
    if (candidate.validation.status != ValidationStatus::kPlausible) continue;
    best = &candidate;
    result.plausible = true;
    result.plausible_template = candidate.scored.candidate.template_id;
    result.plausible_diff = candidate.scored.diff;
    result.correct = bench::SameAstAsReference(fix, candidate.scored.candidate.changes);
    break;
  }
  return best;
}

RealBugResult RepairBug(const RealBug& bug, const RunOptions& options) {
  RealBugResult result = Start(bug);
  auto fail = [&](const absl::Status& status) {
    result.error = std::string(status.message());
    result.outcome = "error";
    return result;
  };
  absl::StatusOr<Prepared> prepared = Prepare(bug, options);
  if (!prepared.ok()) return fail(prepared.status());
  result.source = prepared->source;
  absl::StatusOr<std::vector<FileChange>> fix_or = FixOf(bug, *prepared, options);
  if (!fix_or.ok()) return fail(fix_or.status());
  const std::vector<FileChange>& fix = *fix_or;

  // The user's failing run: cold, once, its output kept as the failure to repair from.
  ValidationPlan plan = PlanFor(bug, prepared->interpreter, options);
  ValidationPlan cold = plan;
  cold.warm = false;
  absl::StatusOr<TestRun> failing =
      Reproduce(prepared->buggy, prepared->scratch, cold, options.cancel);
  if (!failing.ok()) return fail(failing.status());
  result.cold_seconds = failing->seconds;
  result.symptom = SymptomLine(failing->output);
  if (!options.outputs_dir.empty()) {
    std::ofstream(options.outputs_dir + "/" + bug.id + ".txt", std::ios::binary) << failing->output;
  }
  if (failing->passed)
    return fail(absl::FailedPreconditionError("the failing tests pass on the buggy tree"));

  absl::StatusOr<RepairRequest> built = RequestFor(*prepared, failing->output, plan, options);
  if (!built.ok()) return fail(built.status());
  RepairRequest& request = *built;
  const Clock::time_point start = Clock::now();
  absl::StatusOr<RepairReport> report;
  bool spent = false;
  {
    Budget budget(options.budget_seconds, options.cancel);
    request.cancel = budget.flag();
    report = RunRepair(request);
    spent = budget.spent();
  }
  result.seconds = SecondsSince(start);
  result.budget_spent = spent;
  if (!report.ok() && spent) {
    result.outcome = "budget-spent";
    return result;
  }
  if (!report.ok()) return fail(report.status());
  const ValidatedCandidate* best = Score(*report, prepared->buggy, fix, result);
  if (best != nullptr && !result.correct && !bug.held_back_tests.empty()) {
    ValidationPlan held = plan;
    held.failing_test = bug.TestCommand(bug.held_back_tests);
    held.other_tests.clear();
    const ValidationResult checked =
        ValidateCandidate(prepared->buggy, prepared->scratch, "held-back",
                          best->scored.candidate.changes, held, options.cancel);
    result.overfit = checked.status != ValidationStatus::kPlausible;
  }
  result.outcome = Outcome(result, *report);
  return result;
}

RealBugResult LocalizeBug(const RealBug& bug, const RunOptions& options) {
  RealBugResult result = Start(bug);
  auto fail = [&](const absl::Status& status) {
    result.error = std::string(status.message());
    result.outcome = "error";
    return result;
  };
  const std::string saved = options.from_outputs_dir + "/" + bug.id + ".txt";
  absl::StatusOr<std::string> output = ReadFile(saved);
  if (!output.ok()) {
    return fail(absl::NotFoundError(
        Concat("no saved failing output ", saved, " (run the bug with --outputs first)")));
  }
  absl::StatusOr<Prepared> prepared = Prepare(bug, options, /*interpreter=*/false);
  if (!prepared.ok()) return fail(prepared.status());
  result.source = prepared->source;
  // The venv, for the coverage run of an output that names only the tests; without one that
  // run is skipped and a note says so.
  absl::StatusOr<std::string> interpreter = BugInterpreter(bug);
  if (interpreter.ok()) prepared->interpreter = *interpreter;
  absl::StatusOr<std::vector<FileChange>> fix = FixOf(bug, *prepared, options);
  if (!fix.ok()) return fail(fix.status());
  result.symptom = SymptomLine(*output);

  // The full run's request, minus validation: the same localization (with its coverage run
  // when the output names only the tests), and the candidates generated at its sites
  // (counted), no candidate run.
  absl::StatusOr<RepairRequest> built =
      RequestFor(*prepared, *output, PlanFor(bug, prepared->interpreter, options), options);
  if (!built.ok()) return fail(built.status());
  RepairRequest& request = *built;
  request.validate = false;
  request.cancel = options.cancel;
  if (!interpreter.ok()) {
    request.coverage_when_no_site = false;
    request.input_notes.push_back(Concat("no coverage run: ", interpreter.status().message()));
  }
  const Clock::time_point start = Clock::now();
  absl::StatusOr<RepairReport> report = RunRepair(request);
  result.seconds = SecondsSince(start);
  if (!report.ok()) return fail(report.status());
  result.sites = static_cast<int>(report->sites.size());
  result.candidates = report->generated;
  result.notes = report->notes;
  result.localization_rank = LocalizationRank(*report, prepared->buggy, FixedPlaces(*fix));
  // Whether the generator wrote the fix at all, and where the ranking put it: the ceiling of a
  // full run (which may also add candidates from the failing run's facts, not read here).
  FindFix(*report, *fix, result);
  result.outcome = report->sites.empty()      ? "no-site"
                   : result.localization_rank ? "localized"
                                              : "not-localized";
  return result;
}

}  // namespace smallfix::realbugs
