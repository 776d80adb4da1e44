#include "engine/bench/smallfix/bug_runner.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <vector>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/read_file.h"
#include "engine/base/temp_dir.h"
#include "engine/bench/smallfix/ast_match.h"
#include "engine/bench/smallfix/unified_diff.h"
#include "engine/localize/localizer.h"
#include "engine/repair/pipeline.h"
#include "engine/repair/request_builder.h"
#include "validators/process/process.h"
#include "validators/validator.h"

namespace smallfix::bench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Copies `from` to `to` without the caches a test run may have left in the bug's tree.
absl::Status CopyProject(const fs::path& from, const fs::path& to) {
  std::error_code error;
  fs::create_directories(to, error);
  for (auto it = fs::recursive_directory_iterator(from, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name == "__pycache__" || name == ".pytest_cache" || name.ends_with(".pyc")) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    const fs::path target = to / fs::relative(it->path(), from);
    if (it->is_directory()) {
      fs::create_directories(target, error);
    } else {
      fs::copy_file(it->path(), target, fs::copy_options::overwrite_existing, error);
    }
    if (error) break;
  }
  if (error)
    return absl::InternalError(Concat("cannot copy ", from.string(), ": ", error.message()));
  return absl::OkStatus();
}

absl::Status Git(const std::string& repo, std::vector<std::string> args) {
  ProcessOptions process;
  process.argv = {"git",
                  "-c",
                  "user.name=smallfix-bench",
                  "-c",
                  "user.email=bench@smallfix.invalid",
                  "-c",
                  "commit.gpgsign=false"};
  process.argv.insert(process.argv.end(), args.begin(), args.end());
  process.cwd = repo;
  process.time_limit_seconds = 60;
  absl::StatusOr<ProcessResult> ran = RunProcess(process);
  if (!ran.ok()) return ran.status();
  if (!ran->ok())
    return absl::InternalError(Concat("git ", args.front(), " failed: ", ran->output));
  return absl::OkStatus();
}

// The buggy project as a fresh one-commit git repository at `repo`.
absl::Status MakeRepo(const BugSpec& spec, const std::string& repo) {
  if (absl::Status copied = CopyProject(spec.ProjectDir(), repo); !copied.ok()) return copied;
  if (absl::Status s = Git(repo, {"init", "-q"}); !s.ok()) return s;
  if (absl::Status s = Git(repo, {"add", "-A"}); !s.ok()) return s;
  return Git(repo, {"commit", "-qm", "buggy"});
}

std::vector<FileChange> ToPatched(const Candidate& candidate) {
  std::vector<FileChange> files;
  for (const FileChange& change : candidate.changes)
    files.push_back({change.file, change.before, change.after});
  return files;
}

// Builds the request as `smallfix repair` would (request_builder.h): the issue's text to
// localize, or (perfect) the bug's site with the symptom localization reads from the issue;
// the bug's tests, ranks and time limit. The model (bench --llm) sees the issue as a user
// would paste it, in either mode.
absl::StatusOr<RepairRequest> MakeRequest(const BugSpec& spec, const BenchOptions& options,
                                          const std::string& repo) {
  absl::StatusOr<std::string> issue = ReadFile(spec.IssuePath());
  if (!issue.ok()) return issue.status();
  RepairInputs inputs;
  inputs.repo = repo;
  inputs.read_repo_config = false;
  inputs.templates = options.templates_dir;
  inputs.tests = {spec.failing_test, spec.passing_test};
  inputs.python = options.interpreter;
  inputs.cold = !options.warm;
  inputs.world_size = spec.world_size;
  inputs.timeout = options.timeout_seconds > 0 ? options.timeout_seconds : spec.timeout;
  if (options.runner == RunnerKind::kSlurm) {
    inputs.runner = "slurm";
    inputs.slurm_partition = options.slurm.partition;
    inputs.slurm_gpus_per_node = options.slurm.gpus_per_node;
    inputs.slurm_args = options.slurm.extra_args;
    inputs.slurm_job_prefix = Concat("smallfix-", spec.id);
  }
  inputs.llm = options.llm;
  inputs.llm_failure = *issue;
  if (!options.perfect) {
    inputs.failure_text = *std::move(issue);
    inputs.failure_kind = FailureKind::kIssue;
    inputs.coverage = options.coverage;
    return BuildRepairRequest(inputs, options.cancel);
  }
  LocalizeOptions localize;
  localize.kind = FailureKind::kIssue;
  absl::StatusOr<Localization> localization = Localize(repo, *issue, localize);
  if (!localization.ok()) return localization.status();
  inputs.sites = {absl::StrFormat("%s:%d", spec.site_file, spec.site_line)};
  inputs.symptom = localization->symptom.Text();
  return BuildRepairRequest(inputs, options.cancel);
}

// Whether the patch passes the bug's held-back tests: the patched tree with heldback/
// copied in runs tests.heldback with the bug's runner.
bool PassesHeldback(const BugSpec& spec, const BenchOptions& options, const RepairRequest& request,
                    const std::string& scratch, const Candidate& candidate) {
  const std::string& repo = request.repo;
  ValidationPlan plan = request.plan;
  plan.failing_test = spec.heldback_test;
  plan.other_tests.clear();
  plan.build = absl::StrFormat("cp -r '%s' heldback", fs::absolute(spec.HeldbackDir()).string());
  const ValidationResult result =
      ValidateCandidate(repo, scratch, "heldback", candidate.changes, plan, options.cancel);
  return result.status == ValidationStatus::kPlausible;
}

// The bug's reference fix (fix.diff) applied to its project: the files as the fix leaves them,
// which a candidate is compared with.
absl::StatusOr<std::vector<FileChange>> ReadReference(const BugSpec& spec) {
  absl::StatusOr<std::string> fix = ReadFile(spec.FixPath());
  if (!fix.ok()) return fix.status();
  const std::string project = spec.ProjectDir();
  absl::StatusOr<std::vector<FileChange>> reference = ApplyUnifiedDiff(
      *fix, [&](const std::string& file) { return ReadFile(project + "/" + file); });
  if (!reference.ok())
    return absl::InvalidArgumentError(Concat(spec.FixPath(), ": ", reference.status().message()));
  return reference;
}

// Where the reference fix stood in the heuristic's own order, before the model re-ordered the
// candidates: the report keeps that order as diffs, so the candidates are found by their diffs.
std::optional<int> HeuristicRank(const RepairReport& report,
                                 const std::vector<FileChange>& reference) {
  const std::vector<std::string>& heuristic_order = report.llm->heuristic_order;
  for (size_t h = 0; h < heuristic_order.size(); ++h) {
    for (const ValidatedCandidate& candidate : report.candidates) {
      if (candidate.scored.diff == heuristic_order[h] &&
          SameAstAsReference(reference, ToPatched(candidate.scored.candidate))) {
        return static_cast<int>(h) + 1;
      }
    }
  }
  return std::nullopt;
}

std::string Outcome(const RepairReport& report, bool plausible, bool correct) {
  if (correct) return "fixed";
  if (plausible) return "plausible-incorrect";
  if (report.sites.empty()) return "no-site";
  if (report.generated == 0) return "no-candidates";
  if (!report.reproduced) return "not-reproduced";
  return "no-plausible";
}

}  // namespace

BugResult RunBug(const BugSpec& spec, const BenchOptions& options) {
  BugResult result;
  result.id = spec.id;
  result.family = spec.family;
  result.world_size = spec.world_size;
  auto fail = [&](const absl::Status& status) {
    result.outcome = "error";
    result.error = std::string(status.message());
    return result;
  };
  absl::StatusOr<TempDir> temp = TempDir::Create("smallfix-bench");
  if (!temp.ok()) return fail(temp.status());
  const std::string repo = temp->path() + "/repo";
  const std::string scratch = temp->path() + "/scratch";
  if (absl::Status made = MakeRepo(spec, repo); !made.ok()) return fail(made);
  std::error_code error;
  fs::create_directories(scratch, error);

  absl::StatusOr<RepairRequest> request = MakeRequest(spec, options, repo);
  if (!request.ok()) return fail(request.status());
  const Clock::time_point start = Clock::now();
  absl::StatusOr<RepairReport> report = RunRepair(*request);
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (!report.ok()) return fail(report.status());
  result.candidates = report->generated;
  result.validated = report->validated;
  result.warm = report->warm;
  for (const Site& site : report->sites) {
    result.site_found |= site.file == spec.site_file && site.line == spec.site_line;
  }

  absl::StatusOr<std::vector<FileChange>> reference = ReadReference(spec);
  if (!reference.ok()) return fail(reference.status());

  std::optional<int> first_same_ast;
  const ValidatedCandidate* best = nullptr;
  int best_rank = 0;
  bool best_same_ast = false;
  for (size_t i = 0; i < report->candidates.size(); ++i) {
    const ValidatedCandidate& candidate = report->candidates[i];
    const bool same = SameAstAsReference(*reference, ToPatched(candidate.scored.candidate));
    if (same && !first_same_ast) first_same_ast = static_cast<int>(i) + 1;
    result.correct_candidates += same;
    if (best == nullptr && candidate.validation.status == ValidationStatus::kPlausible) {
      best = &candidate;
      best_rank = static_cast<int>(i) + 1;
      best_same_ast = same;
    }
  }
  result.rank = first_same_ast;
  if (report->llm) {
    result.llm = true;
    result.llm_rank = first_same_ast;
    result.llm_notes = report->llm->notes;
    result.llm_model = report->llm->model;
    result.ranked = static_cast<int>(report->candidates.size());
    result.heuristic_rank = HeuristicRank(*report, *reference);
  }
  result.plausible = best != nullptr;
  if (best != nullptr) {
    result.template_id = best->scored.candidate.template_id;
    if (best_same_ast) {
      result.correct = true;
      result.correct_by = "ast";
    } else if (PassesHeldback(spec, options, *request, scratch, best->scored.candidate)) {
      result.correct = true;
      result.correct_by = "heldback";
      result.rank = best_rank;
    }
  }
  result.outcome = Outcome(*report, result.plausible, result.correct);
  if (report->cancelled) return fail(absl::CancelledError("interrupted"));
  return result;
}

}  // namespace smallfix::bench
