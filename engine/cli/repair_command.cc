// smallfix repair: localize (or take --site), match templates, rank, validate, report.
#include <fstream>
#include <iostream>
#include <memory>

#include "engine/base/concat.h"
#include "engine/cli/commands.h"
#include "engine/cli/interrupts.h"
#include "engine/cli/issue_flag.h"
#include "engine/cli/llm_flags.h"
#include "engine/cli/sandbox_flags.h"
#include "engine/repair/pipeline.h"
#include "engine/repair/report.h"
#include "engine/repair/request_builder.h"

namespace smallfix::cli {
namespace {

// `smallfix repair`'s flags: what the repair is asked (RepairInputs) and how it is printed.
struct RepairFlags {
  RepairInputs inputs;
  bool json = false, quiet = false;
  std::string sarif;
};

// Prints the report; false when --sarif's file cannot be written.
bool Print(const RepairFlags& flags, const RepairReport& report, bool validated) {
  if (flags.json) {
    std::cout << ReportJson(report).dump(2) << "\n";
  } else {
    std::cout << ReportText(report, validated);
  }
  if (!flags.sarif.empty()) {
    std::ofstream out(flags.sarif);
    out << ReportSarif(report).dump(2) << "\n";
    if (!out) {
      std::cerr << "smallfix: cannot write --sarif " << flags.sarif << "\n";
      return false;
    }
  }
  return true;
}

int Run(const RepairFlags& flags) {
  const std::atomic<bool>* cancel = InstallInterruptHandlers();
  absl::Status llm_flags = CheckLlmFlags(flags.inputs.llm);
  absl::StatusOr<RepairRequest> request =
      llm_flags.ok() ? BuildRepairRequest(flags.inputs, cancel) : llm_flags;
  if (!request.ok()) {
    std::cerr << "smallfix: " << request.status().message() << "\n";
    return kExitBadInput;
  }
  if (!flags.quiet)
    request->progress = [](const std::string& line) { std::cerr << "smallfix: " << line << "\n"; };
  if (request->progress && request->plan.runner.kind == RunnerKind::kSlurm && request->validate) {
    request->progress(Concat("--runner slurm: Slurm jobs are named ",
                             request->plan.runner.slurm.job_name_prefix,
                             "-* (squeue -t all shows them)"));
  }
  absl::StatusOr<RepairReport> report = RunRepair(*request);
  if (!report.ok()) {
    std::cerr << "smallfix: " << report.status().message() << "\n";
    return ExitStatusFor(report.status());
  }
  if (!Print(flags, *report, request->validate)) return kExitBadInput;
  // Ctrl-C while waiting for the LLM ends the run like Ctrl-C while validating.
  if (report->cancelled || (report->llm && cancel->load())) {
    std::cerr << "smallfix: interrupted; workspaces removed\n";
    return 128 + (InterruptSignal() ? InterruptSignal() : 2);
  }
  if (!report->apply_status.ok()) {
    std::cerr << "smallfix: --apply: " << report->apply_status.message() << "\n";
    return ExitStatusFor(report->apply_status);
  }
  if (!report->applied.empty())
    std::cerr << "smallfix: applied " << report->applied << " to the working tree\n";
  return BestCandidate(*report, request->validate) != nullptr ? kExitFound : kExitNone;
}

// --slurm-*: the job settings of --runner slurm.
void AddSlurmFlags(CLI::App& command, RepairInputs& inputs) {
  command.add_option("--slurm-partition", inputs.slurm_partition,
                     "--runner slurm: the partition (default: the cluster's)");
  command.add_option("--slurm-account", inputs.slurm_account,
                     "--runner slurm: the account to charge");
  command.add_option("--slurm-qos", inputs.slurm_qos, "--runner slurm: the quality of service");
  command.add_option("--slurm-nodes", inputs.slurm_nodes,
                     "--runner slurm: nodes per job; ranks spread evenly (default 1)");
  command.add_option("--slurm-gpus-per-node", inputs.slurm_gpus_per_node,
                     "--runner slurm: GPUs per node (gres gpu)");
  command
      .add_option("--slurm-arg", inputs.slurm_args,
                  "--runner slurm: one more sbatch argument (--slurm-arg=--exclusive); repeatable")
      ->allow_extra_args(false);
  command.add_option("--slurm-workdir", inputs.slurm_workdir,
                     "--runner slurm: where job scripts, rank output and JUnit reports go, on a "
                     "file system the nodes "
                     "share (default: inside each candidate's worktree)");
}

}  // namespace

void AddRepairCommand(CLI::App& app, int* exit_status) {
  auto o = std::make_shared<RepairFlags>();
  CLI::App* repair = app.add_subcommand("repair", "Find and validate a small patch for a failure");
  repair->add_option("--repo", o->inputs.repo, "The repository to repair")->required();
  repair->add_option("--issue", o->inputs.issue,
                     "The GitHub issue with the failure: a file (markdown), OWNER/NAME#N or the "
                     "issue's URL (read with its comments; token from GITHUB_TOKEN if set)");
  auto api = std::make_shared<std::string>();
  repair->add_option("--api", *api,
                     "GitHub REST API for an --issue link (default: the link's; GitHub "
                     "Enterprise: https://HOST/api/v3)");
  repair->add_option("--log", o->inputs.log, "A log, pytest output or JUnit XML with the failure");
  repair->add_option("--site", o->inputs.sites,
                     "Repair at FILE:LINE (perfect localization); repeatable");
  repair->add_flag("--one-fix", o->inputs.one_fix,
                   "The --site lines are all lines of one fix: also try edits of several of them "
                   "at once (the same "
                   "edit at each, or the best edits of two or more), and rank first those that "
                   "edit more of them");
  repair->add_option("--symptom", o->inputs.symptom,
                     "The error text with --site, \"Type: message\"");
  repair->add_option("--test", o->inputs.tests,
                     "The failing test command; more --test: tests that must keep passing");
  repair->add_option("--build", o->inputs.build, "Build command run before the tests");
  repair->add_option("--runner", o->inputs.runner, "local | torchrun | slurm");
  repair->add_option("--world-size", o->inputs.world_size,
                     "Ranks for the torchrun or slurm runner");
  AddSlurmFlags(*repair, o->inputs);
  repair->add_option("--timeout", o->inputs.timeout, "Seconds per stage (default 300)")
      ->check(CLI::PositiveNumber);
  repair->add_option(
      "--python", o->inputs.python,
      "Interpreter for tests (default: .smallfix.yaml, else the first python3 on PATH)");
  repair->add_option("--templates", o->inputs.templates,
                     "Template directory (default: the installed templates/)");
  repair->add_flag(
      "--coverage", o->inputs.coverage,
      "Also rank lines by coverage (Ochiai) over the tests before localizing (pytest; runs the "
      "second --test, else the first, once and single-process)");
  AddSandboxFlags(*repair, o->inputs);
  repair->add_flag("--no-validate", o->inputs.no_validate,
                   "List candidates without validating them");
  repair->add_flag("--cold", o->inputs.cold,
                   "A fresh interpreter for every test run (default: pytest runs fork from a warm "
                   "server with torch "
                   "loaded, started once per repair; it falls back to cold runs when it fails)");
  repair->add_option("--top", o->inputs.top, "Stop after K plausible patches (default 1)");
  repair->add_option("--jobs", o->inputs.jobs, "Candidates validated at once (default 1)");
  repair
      ->add_option("--weak-lookahead", o->inputs.weak_lookahead,
                   "After a plausible patch of a weak template (`weak: true`), validate N more "
                   "candidates for one of another kind, which then comes first (default 8)")
      ->check(CLI::NonNegativeNumber);
  repair->add_option("--max-candidates", o->inputs.max_candidates,
                     "Candidates kept per site, best first (default 12; 0: all)");
  AddLlmFlags(*repair, o->inputs.llm,
              "Base URL of an OpenAI-compatible server that ranks the candidates (e.g. "
              "http://127.0.0.1:8000)",
              "Also ask the LLM for up to N edits at the top sites");
  repair->add_flag("--apply", o->inputs.apply,
                   "Apply the best patch to the working tree (refused when it is dirty)");
  repair->add_flag("--json", o->json, "Print one JSON object (docs/design.md, \"JSON\")");
  repair->add_option("--sarif", o->sarif, "Also write SARIF 2.1.0 with fixes to FILE");
  repair->add_flag("-q,--quiet", o->quiet, "No progress on stderr");
  repair->callback([o, api, exit_status] {
    absl::Status linked = ReadIssueLinkFlag(o->inputs, *api, o->quiet, InstallInterruptHandlers());
    if (!linked.ok()) std::cerr << "smallfix: " << linked.message() << "\n";
    *exit_status = linked.ok() ? Run(*o) : ExitStatusFor(linked);
  });
}

}  // namespace smallfix::cli
