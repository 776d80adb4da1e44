// smallfix repair: localize (or take --site), match templates, rank, validate, report.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "engine/base/read_file.h"
#include "engine/cli/commands.h"
#include "engine/cli/interrupts.h"
#include "engine/repair/pipeline.h"
#include "engine/repair/repo_config.h"
#include "engine/repair/report.h"
#include "engine/vcs/dirty_check.h"

namespace smallfix::cli {
namespace {

struct Options {
  std::string repo, issue, log, symptom, build, runner, templates, sarif, llm, python;
  std::vector<std::string> sites;  // FILE:LINE
  std::vector<std::string> tests;  // the first is the failing test
  int world_size = 0, top = 1, jobs = 1, max_candidates = GenerateOptions().max_per_site;
  double timeout = 0;
  bool no_validate = false, apply = false, json = false, quiet = false, coverage = false;
};

absl::StatusOr<RepairSite> ParseSite(const std::string& text) {
  const size_t colon = text.rfind(':');
  int line = 0;
  if (colon == std::string::npos || colon == 0 || !absl::SimpleAtoi(text.substr(colon + 1), &line) || line < 1) {
    return absl::InvalidArgumentError(absl::StrFormat("--site %s: expected FILE:LINE", text));
  }
  return RepairSite{text.substr(0, colon), line, 1.0};
}

absl::StatusOr<std::string> ReadInput(const std::string& path, const char* flag) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return absl::NotFoundError(absl::StrFormat("%s %s", flag, text.status().message()));
  return text;
}

// Builds the request from flags over .smallfix.yaml over defaults.
absl::StatusOr<RepairRequest> MakeRequest(const Options& o, const std::atomic<bool>* cancel) {
  RepairRequest request;
  request.repo = o.repo;
  std::error_code error;
  if (!std::filesystem::is_directory(o.repo, error)) {
    return absl::InvalidArgumentError(absl::StrFormat("--repo %s is not a directory", o.repo));
  }
  const int inputs = !o.issue.empty() + !o.log.empty() + !o.sites.empty();
  if (inputs != 1) return absl::InvalidArgumentError("give exactly one of --issue FILE, --log FILE or --site FILE:LINE");
  if (!o.llm.empty()) return absl::UnimplementedError("--llm: the LLM ranker is not built yet; the heuristic ranker is used without it");
  absl::StatusOr<RepoConfig> config = LoadRepoConfig(o.repo);
  if (!config.ok()) return config.status();
  if (!o.issue.empty() || !o.log.empty()) {
    absl::StatusOr<std::string> text = o.issue.empty() ? ReadInput(o.log, "--log") : ReadInput(o.issue, "--issue");
    if (!text.ok()) return text.status();
    request.failure_text = *std::move(text);
    request.failure_kind = o.issue.empty() ? FailureKind::kAuto : FailureKind::kIssue;
  }
  for (const std::string& text : o.sites) {
    absl::StatusOr<RepairSite> site = ParseSite(text);
    if (!site.ok()) return site.status();
    request.sites.push_back(*site);
  }
  request.symptom_text = o.symptom;
  request.templates_dir = o.templates;
  request.validate = !o.no_validate;
  request.top = std::max(1, o.top);
  request.jobs = std::max(1, o.jobs);
  request.max_candidates = std::max(0, o.max_candidates);
  request.coverage = o.coverage;
  request.cancel = cancel;

  ValidationPlan& plan = request.plan;
  plan.failing_test = !o.tests.empty() ? o.tests.front() : config->test.value_or("");
  for (size_t i = 1; i < o.tests.size(); ++i) plan.other_tests.push_back(o.tests[i]);
  if (o.tests.size() <= 1) {
    for (const std::string& test : config->tests) plan.other_tests.push_back(test);
  }
  plan.build = !o.build.empty() ? o.build : config->build.value_or("");
  plan.interpreter = !o.python.empty() ? o.python : config->interpreter.value_or("/usr/bin/python3");
  plan.runner.kind = !o.runner.empty() ? o.runner : config->runner.value_or("local");
  if (plan.runner.kind == "slurm") {
    return absl::UnimplementedError("--runner slurm is not built yet; use local or torchrun");
  }
  if (plan.runner.kind != "local" && plan.runner.kind != "torchrun") {
    return absl::InvalidArgumentError(absl::StrFormat("--runner %s: expected local, torchrun or slurm", plan.runner.kind));
  }
  plan.runner.world_size = o.world_size > 0 ? o.world_size : config->world_size.value_or(1);
  if (plan.runner.world_size > 1 && o.runner.empty() && !config->runner) plan.runner.kind = "torchrun";
  plan.runner.time_limit_seconds = o.timeout > 0 ? o.timeout : config->timeout.value_or(300);
  plan.runner.memory_limit_bytes = config->memory_limit_mb.value_or(0) << 20;
  return request;
}

absl::Status Apply(const std::string& repo, const ValidatedCandidate& best) {
  absl::StatusOr<std::vector<std::string>> dirty = ModifiedTrackedFiles(repo);
  if (!dirty.ok()) return dirty.status();
  if (!dirty->empty()) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "--apply: the working tree has uncommitted changes (%s%s); commit or stash them first",
        dirty->front(), dirty->size() > 1 ? absl::StrFormat(" and %d more", dirty->size() - 1) : ""));
  }
  for (const FileChange& change : best.scored.candidate.changes) {
    const std::filesystem::path path = std::filesystem::path(repo) / change.file;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(change.after.data(), static_cast<std::streamsize>(change.after.size()));
    if (!out) return absl::InternalError(absl::StrFormat("--apply: cannot write %s", path.string()));
  }
  return absl::OkStatus();
}

int Run(const Options& options) {
  const std::atomic<bool>* cancel = InstallInterruptHandlers();
  absl::StatusOr<RepairRequest> request = MakeRequest(options, cancel);
  if (!request.ok()) {
    std::cerr << "smallfix: " << request.status().message() << "\n";
    return kExitBadInput;
  }
  if (!options.quiet) request->progress = [](const std::string& line) { std::cerr << "smallfix: " << line << "\n"; };
  absl::StatusOr<RepairReport> report = RunRepair(*request);
  if (!report.ok()) {
    std::cerr << "smallfix: " << report.status().message() << "\n";
    return kExitBadInput;
  }
  if (options.json) {
    std::cout << ReportJson(*report).dump(2) << "\n";
  } else {
    std::cout << ReportText(*report, request->validate);
  }
  if (!options.sarif.empty()) {
    std::ofstream out(options.sarif);
    out << ReportSarif(*report).dump(2) << "\n";
    if (!out) std::cerr << "smallfix: cannot write --sarif " << options.sarif << "\n";
  }
  if (report->cancelled) {
    std::cerr << "smallfix: interrupted; workspaces removed\n";
    return 128 + (InterruptSignal() ? InterruptSignal() : 2);
  }
  const ValidatedCandidate* best = BestCandidate(*report, request->validate);
  if (best != nullptr && options.apply) {
    if (absl::Status applied = Apply(options.repo, *best); !applied.ok()) {
      std::cerr << "smallfix: " << applied.message() << "\n";
      return kExitBadInput;
    }
    std::cerr << "smallfix: applied " << best->scored.candidate.template_id << " to the working tree\n";
  }
  return best != nullptr ? kExitFound : kExitNone;
}

}  // namespace

void AddRepairCommand(CLI::App& app, int* exit_status) {
  auto o = std::make_shared<Options>();
  CLI::App* repair = app.add_subcommand("repair", "Find and validate a small patch for a failure");
  repair->add_option("--repo", o->repo, "The repository to repair")->required();
  repair->add_option("--issue", o->issue, "A GitHub issue body (markdown) with the failure");
  repair->add_option("--log", o->log, "A log, pytest output or JUnit XML with the failure");
  repair->add_option("--site", o->sites, "Repair at FILE:LINE (perfect localization); repeatable");
  repair->add_option("--symptom", o->symptom, "The error text with --site, \"Type: message\"");
  repair->add_option("--test", o->tests, "The failing test command; more --test: tests that must keep passing");
  repair->add_option("--build", o->build, "Build command run before the tests");
  repair->add_option("--runner", o->runner, "local | torchrun | slurm");
  repair->add_option("--world-size", o->world_size, "Ranks for the torchrun runner");
  repair->add_option("--timeout", o->timeout, "Seconds per stage (default 300)");
  repair->add_option("--python", o->python, "Interpreter for tests (default /usr/bin/python3)");
  repair->add_option("--templates", o->templates, "Template directory (default: the installed templates/)");
  repair->add_flag("--coverage", o->coverage,
                   "Also rank lines by coverage (Ochiai) over the tests before localizing (pytest; runs the "
                   "second --test, else the first, once and single-process)");
  repair->add_flag("--no-validate", o->no_validate, "List candidates without validating them");
  repair->add_option("--top", o->top, "Stop after K plausible patches (default 1)");
  repair->add_option("--jobs", o->jobs, "Candidates validated at once (default 1)");
  repair->add_option("--max-candidates", o->max_candidates,
                     "Candidates kept per site, best first (default 12; 0: all)");
  repair->add_option("--llm", o->llm, "URL of an LLM ranking service");
  repair->add_flag("--apply", o->apply, "Apply the best patch to the working tree (refused when it is dirty)");
  repair->add_flag("--json", o->json, "Print one JSON object (see DESIGN.md)");
  repair->add_option("--sarif", o->sarif, "Also write SARIF 2.1.0 with fixes to FILE");
  repair->add_flag("-q,--quiet", o->quiet, "No progress on stderr");
  repair->callback([o, exit_status] { *exit_status = Run(*o); });
}

}  // namespace smallfix::cli
