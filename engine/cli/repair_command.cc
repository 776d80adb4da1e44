// smallfix repair: localize (or take --site), match templates, rank, validate, report.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/dir_lock.h"
#include "engine/base/read_file.h"
#include "engine/cli/commands.h"
#include "engine/cli/interrupts.h"
#include "engine/cli/issue_flag.h"
#include "engine/cli/llm_flags.h"
#include "engine/cli/repair_request.h"
#include "engine/cli/sandbox_flags.h"
#include "engine/repair/llm_attach.h"
#include "engine/repair/pipeline.h"
#include "engine/repair/report.h"
#include "engine/vcs/dirty_check.h"
#include "validators/slurm/slurm_test_runner.h"

namespace smallfix::cli {
namespace {

absl::Status Apply(const std::string& repo, const ValidatedCandidate& best,
                   const std::atomic<bool>* cancel) {
  // The check and the writes are one step among runs at once: a second run applying a patch
  // to this tree finds the first one's patch there and refuses, instead of mixing two.
  absl::StatusOr<DirLock> lock = DirLock::Acquire(
      repo,
      [&] {
        std::cerr << "smallfix: --apply: waiting for another smallfix run that is applying its "
                     "patch to "
                  << repo << "\n";
      },
      cancel);
  if (!lock.ok()) return lock.status();
  absl::StatusOr<std::vector<std::string>> dirty = ModifiedTrackedFiles(repo);
  if (!dirty.ok()) return dirty.status();
  if (!dirty->empty()) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "--apply: the working tree has uncommitted changes (%s%s); commit or stash them first",
        dirty->front(),
        dirty->size() > 1 ? absl::StrFormat(" and %d more", dirty->size() - 1) : ""));
  }
  for (const FileChange& change : best.scored.candidate.changes) {
    const std::filesystem::path path = std::filesystem::path(repo) / change.file;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(change.after.data(), static_cast<std::streamsize>(change.after.size()));
    if (!out)
      return absl::InternalError(absl::StrFormat("--apply: cannot write %s", path.string()));
  }
  return absl::OkStatus();
}

// The LLM's notes and spending, added to the report: the notes for every format, the
// numbers under stats.llm in JSON.
nlohmann::json AddLlmToReport(const LlmSession& session, RepairReport& report) {
  const LlmStats& stats = session.client.stats();
  for (const std::string& note : session.AllNotes()) report.notes.push_back(note);
  report.notes.push_back(absl::StrFormat(
      "llm: %d call(s), %d answer(s) from the cache, %d prompt and %d completion tokens",
      stats.calls, stats.cache_hits, stats.prompt_tokens, stats.completion_tokens));
  return {{"model", session.client.model()},      {"calls", stats.calls},
          {"cache_hits", stats.cache_hits},       {"retries", stats.retries},
          {"prompt_tokens", stats.prompt_tokens}, {"completion_tokens", stats.completion_tokens}};
}

int Run(const RepairFlags& options) {
  const std::atomic<bool>* cancel = InstallInterruptHandlers();
  absl::StatusOr<RepairRequest> request = MakeRepairRequest(options, cancel);
  if (!request.ok()) {
    std::cerr << "smallfix: " << request.status().message() << "\n";
    return kExitBadInput;
  }
  if (!options.quiet)
    request->progress = [](const std::string& line) { std::cerr << "smallfix: " << line << "\n"; };
  if (request->progress && request->plan.runner.kind == RunnerKind::kSlurm && request->validate) {
    request->progress(Concat("--runner slurm: Slurm jobs are named ",
                             request->plan.runner.slurm.job_name_prefix,
                             "-* (squeue -t all shows them)"));
  }
  // With --llm: the LLM ranks (and with --llm-propose also proposes); without it nothing
  // below touches the request, so the output stays what the heuristic alone gives.
  std::optional<AttachedLlm> llm;
  if (!options.llm.url.empty()) {
    const std::string failure =
        !request->failure_text.empty() ? request->failure_text : request->symptom_text;
    llm.emplace(options.llm, failure, *request, cancel);
  }
  absl::StatusOr<RepairReport> report = RunRepair(*request);
  if (request->plan.runner.kind == RunnerKind::kSlurm && cancel->load()) {
    // Each job is cancelled by the run that submitted it; this sweep by name catches one
    // whose sbatch returned while the run was already unwinding.
    const std::string& prefix = request->plan.runner.slurm.job_name_prefix;
    absl::StatusOr<int> swept = CancelJobsOfRun(prefix);
    if (!swept.ok())
      std::cerr << "smallfix: " << swept.status().message() << "\n";
    else if (*swept > 0)
      std::cerr << "smallfix: cancelled " << *swept << " more Slurm job(s) named " << prefix
                << "-*\n";
  }
  if (!report.ok()) {
    std::cerr << "smallfix: " << report.status().message() << "\n";
    return ExitStatusFor(report.status());
  }
  nlohmann::json llm_stats;
  if (llm) llm_stats = AddLlmToReport(llm->session(), *report);
  if (options.json) {
    nlohmann::json out = ReportJson(*report);
    if (llm) out["stats"]["llm"] = llm_stats;
    std::cout << out.dump(2) << "\n";
  } else {
    std::cout << ReportText(*report, request->validate);
  }
  if (!options.sarif.empty()) {
    std::ofstream out(options.sarif);
    out << ReportSarif(*report).dump(2) << "\n";
    if (!out) {
      std::cerr << "smallfix: cannot write --sarif " << options.sarif << "\n";
      return kExitBadInput;
    }
  }
  // Ctrl-C while waiting for the LLM ends the run like Ctrl-C while validating.
  if (report->cancelled || (llm && cancel->load())) {
    std::cerr << "smallfix: interrupted; workspaces removed\n";
    return 128 + (InterruptSignal() ? InterruptSignal() : 2);
  }
  const ValidatedCandidate* best = BestCandidate(*report, request->validate);
  if (best != nullptr && options.apply) {
    if (absl::Status applied = Apply(options.repo, *best, cancel); !applied.ok()) {
      std::cerr << "smallfix: " << applied.message() << "\n";
      return ExitStatusFor(applied);
    }
    std::cerr << "smallfix: applied " << best->scored.candidate.template_id
              << " to the working tree\n";
  }
  return best != nullptr ? kExitFound : kExitNone;
}

}  // namespace

void AddRepairCommand(CLI::App& app, int* exit_status) {
  auto o = std::make_shared<RepairFlags>();
  CLI::App* repair = app.add_subcommand("repair", "Find and validate a small patch for a failure");
  repair->add_option("--repo", o->repo, "The repository to repair")->required();
  repair->add_option("--issue", o->issue,
                     "The GitHub issue with the failure: a file (markdown), OWNER/NAME#N or the "
                     "issue's URL (read with its comments; token from GITHUB_TOKEN if set)");
  auto api = std::make_shared<std::string>();
  repair->add_option("--api", *api,
                     "GitHub REST API for an --issue link (default: the link's; GitHub "
                     "Enterprise: https://HOST/api/v3)");
  repair->add_option("--log", o->log, "A log, pytest output or JUnit XML with the failure");
  repair->add_option("--site", o->sites, "Repair at FILE:LINE (perfect localization); repeatable");
  repair->add_flag("--one-fix", o->one_fix,
                   "The --site lines are all lines of one fix: also try edits of several of them "
                   "at once (the same "
                   "edit at each, or the best edits of two or more), and rank first those that "
                   "edit more of them");
  repair->add_option("--symptom", o->symptom, "The error text with --site, \"Type: message\"");
  repair->add_option("--test", o->tests,
                     "The failing test command; more --test: tests that must keep passing");
  repair->add_option("--build", o->build, "Build command run before the tests");
  repair->add_option("--runner", o->runner, "local | torchrun | slurm");
  repair->add_option("--world-size", o->world_size, "Ranks for the torchrun or slurm runner");
  repair->add_option("--slurm-partition", o->slurm_partition,
                     "--runner slurm: the partition (default: the cluster's)");
  repair->add_option("--slurm-account", o->slurm_account, "--runner slurm: the account to charge");
  repair->add_option("--slurm-qos", o->slurm_qos, "--runner slurm: the quality of service");
  repair->add_option("--slurm-nodes", o->slurm_nodes,
                     "--runner slurm: nodes per job; ranks spread evenly (default 1)");
  repair->add_option("--slurm-gpus-per-node", o->slurm_gpus_per_node,
                     "--runner slurm: GPUs per node (gres gpu)");
  repair
      ->add_option("--slurm-arg", o->slurm_args,
                   "--runner slurm: one more sbatch argument (--slurm-arg=--exclusive); repeatable")
      ->allow_extra_args(false);
  repair->add_option("--slurm-workdir", o->slurm_workdir,
                     "--runner slurm: where job scripts, rank output and JUnit reports go, on a "
                     "file system the nodes "
                     "share (default: inside each candidate's worktree)");
  repair->add_option("--timeout", o->timeout, "Seconds per stage (default 300)")
      ->check(CLI::PositiveNumber);
  repair->add_option(
      "--python", o->python,
      "Interpreter for tests (default: .smallfix.yaml, else the first python3 on PATH)");
  repair->add_option("--templates", o->templates,
                     "Template directory (default: the installed templates/)");
  repair->add_flag(
      "--coverage", o->coverage,
      "Also rank lines by coverage (Ochiai) over the tests before localizing (pytest; runs the "
      "second --test, else the first, once and single-process)");
  AddSandboxFlags(*repair, *o);
  repair->add_flag("--no-validate", o->no_validate, "List candidates without validating them");
  repair->add_flag("--cold", o->cold,
                   "A fresh interpreter for every test run (default: pytest runs fork from a warm "
                   "server with torch "
                   "loaded, started once per repair; it falls back to cold runs when it fails)");
  repair->add_option("--top", o->top, "Stop after K plausible patches (default 1)");
  repair->add_option("--jobs", o->jobs, "Candidates validated at once (default 1)");
  repair->add_option("--max-candidates", o->max_candidates,
                     "Candidates kept per site, best first (default 12; 0: all)");
  AddLlmFlags(*repair, o->llm,
              "Base URL of an OpenAI-compatible server that ranks the candidates (e.g. "
              "http://127.0.0.1:8000)",
              "Also ask the LLM for up to N edits at the top sites");
  repair->add_flag("--apply", o->apply,
                   "Apply the best patch to the working tree (refused when it is dirty)");
  repair->add_flag("--json", o->json, "Print one JSON object (docs/design.md, \"JSON\")");
  repair->add_option("--sarif", o->sarif, "Also write SARIF 2.1.0 with fixes to FILE");
  repair->add_flag("-q,--quiet", o->quiet, "No progress on stderr");
  repair->callback([o, api, exit_status] {
    absl::Status linked = ReadIssueLinkFlag(*o, *api, InstallInterruptHandlers());
    if (!linked.ok()) std::cerr << "smallfix: " << linked.message() << "\n";
    *exit_status = linked.ok() ? Run(*o) : ExitStatusFor(linked);
  });
}

}  // namespace smallfix::cli
