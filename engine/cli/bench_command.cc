// smallfix bench: repair every benchmark bug from its issue and score the patches.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "absl/strings/str_split.h"
#include "engine/base/concat.h"
#include "engine/bench/realbugs/realbugs_bench.h"
#include "engine/bench/realfix/realfix_bench.h"
#include "engine/bench/smallfix/bench_run.h"
#include "engine/bench/smallfix/bug_runner.h"
#include "engine/bench/smallfix/bug_spec.h"
#include "engine/bench/smallfix/llm_comparison.h"
#include "engine/bench/smallfix/progress_bar.h"
#include "engine/bench/smallfix/results_chart.h"
#include "engine/bench/smallfix/results_json.h"
#include "engine/bench/smallfix/results_markdown.h"
#include "engine/bench/smallfix/run_each.h"
#include "engine/cli/commands.h"
#include "engine/cli/interrupts.h"
#include "engine/cli/llm_flags.h"

namespace smallfix::cli {
namespace {

struct Options {
  std::string bugs_dir, json, markdown, chart, templates, python;
  std::vector<std::string> bugs;  // --bug, repeatable, comma lists too
  int jobs = 1;
  double timeout = 0;
  bool perfect = false;
  bool cold = false;
  bool coverage = false;
  LlmFlags llm;
  std::string runner, slurm_partition;
  int slurm_gpus_per_node = 0;
  std::vector<std::string> slurm_args;
};

// The benchmark's options from the flags; bad flags are an error naming them.
absl::StatusOr<bench::BenchOptions> OptionsOf(const Options& o) {
  bench::BenchOptions options;
  if (!o.runner.empty()) {
    const std::optional<RunnerKind> kind = ParseRunnerKind(o.runner);
    if (!kind) {
      return absl::InvalidArgumentError(
          Concat("--runner ", o.runner, ": expected local, torchrun or slurm"));
    }
    options.runner = *kind;
  }
  if ((!o.slurm_partition.empty() || o.slurm_gpus_per_node > 0 || !o.slurm_args.empty()) &&
      options.runner != RunnerKind::kSlurm) {
    return absl::InvalidArgumentError("--slurm-* flags need --runner slurm");
  }
  options.slurm.partition = o.slurm_partition;
  options.slurm.gpus_per_node = o.slurm_gpus_per_node;
  options.slurm.extra_args = o.slurm_args;
  options.llm = o.llm;
  options.perfect = o.perfect;
  options.warm = !o.cold;
  options.coverage = o.coverage;
  options.timeout_seconds = o.timeout;
  options.templates_dir = o.templates;
  if (!o.python.empty()) options.interpreter = o.python;
  options.cancel = InstallInterruptHandlers();
  return options;
}

int Run(const Options& o) {
  std::vector<std::string> ids;
  for (const std::string& flag : o.bugs) {
    for (absl::string_view id : absl::StrSplit(flag, ',', absl::SkipWhitespace()))
      ids.emplace_back(id);
  }
  const std::string bugs_dir = o.bugs_dir.empty() ? bench::DefaultBugsDir() : o.bugs_dir;
  absl::StatusOr<std::vector<bench::BugSpec>> bugs = bench::LoadBugs(bugs_dir, ids);
  if (!bugs.ok()) {
    std::cerr << "smallfix: " << bugs.status().message() << "\n";
    return kExitBadInput;
  }
  if (o.jobs < 1) {
    std::cerr << "smallfix: --jobs must be 1 or more\n";
    return kExitBadInput;
  }
  absl::StatusOr<bench::BenchOptions> built = OptionsOf(o);
  if (!built.ok()) {
    std::cerr << "smallfix: " << built.status().message() << "\n";
    return kExitBadInput;
  }
  bench::BenchOptions& options = *built;
  bench::BenchRun run;
  run.mode = o.perfect ? "perfect" : o.coverage ? "issue+coverage" : "issue";
  run.jobs = o.jobs;
  run.warm = options.warm;
  const auto start = std::chrono::steady_clock::now();
  bench::ProgressBar progress(static_cast<int>(bugs->size()), isatty(STDERR_FILENO) != 0,
                              std::cerr);
  run.bugs = bench::RunEach<bench::BugResult>(bugs->size(), o.jobs, options.cancel, [&](size_t i) {
    progress.Started((*bugs)[i].id);
    bench::BugResult result = bench::RunBug((*bugs)[i], options);
    progress.Finished(result);
    return result;
  });
  progress.Close();
  if (!o.llm.url.empty()) {
    // The model the sessions asked (given, or the server's first /v1/models entry).
    run.llm_model = o.llm.model;
    for (const bench::BugResult& bug : run.bugs) {
      if (run.llm_model.empty()) run.llm_model = bug.llm_model;
    }
    if (run.llm_model.empty()) run.llm_model = "(server not reached)";
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::cout << "smallfix bench (" << run.mode << " mode): " << run.bugs.size() << " bugs in "
            << static_cast<int>(run.seconds) << " s\n"
            << bench::SummaryText(run);
  if (!o.llm.url.empty()) std::cout << bench::LlmComparisonText(run);
  bool written = true;
  if (!o.json.empty())
    written &= bench::WriteOutput(o.json, bench::ResultsJson(run).dump(2) + "\n", "--json");
  if (!o.markdown.empty())
    written &= bench::WriteOutput(o.markdown, bench::ResultsMarkdown(run), "--markdown");
  if (!o.chart.empty()) written &= bench::WriteOutput(o.chart, bench::ResultsSvg(run), "--chart");
  if (options.cancel->load()) {
    std::cerr << "smallfix: interrupted; results cover the bugs that finished\n";
    return 128 + (InterruptSignal() ? InterruptSignal() : 2);
  }
  return written ? kExitFound : kExitBadInput;
}

}  // namespace

void AddBenchCommand(CLI::App& app, int* exit_status) {
  auto o = std::make_shared<Options>();
  CLI::App* bench =
      app.add_subcommand("bench", "Run the small-fix benchmark and score the patches");
  bench->add_option("--bugs-dir", o->bugs_dir,
                    "Directory of bugs (default: benchmarks/smallfix/bugs)");
  bench->add_option("--bug", o->bugs, "Run only this bug (repeatable; comma lists too)");
  bench->add_option("--jobs", o->jobs, "Bugs repaired at once (default 1)");
  CLI::Option* perfect =
      bench->add_flag("--perfect", o->perfect, "Perfect localization: repair at bug.yaml's site");
  bench
      ->add_flag("--coverage", o->coverage,
                 "Localize from issue.md and coverage over the bug's tests")
      ->excludes(perfect);
  bench->add_flag("--cold", o->cold,
                  "A fresh interpreter for every test run (default: a warm server per repair)");
  bench->add_option("--json", o->json, "Write the results as JSON to FILE");
  bench->add_option("--markdown", o->markdown, "Write the results as markdown tables to FILE");
  bench->add_option("--chart", o->chart,
                    "Write an SVG chart (rates per family, time to fix) to FILE");
  bench->add_option("--timeout", o->timeout,
                    "Seconds per test command (default: each bug's timeout)");
  bench->add_option("--templates", o->templates,
                    "Template directory (default: the installed templates/)");
  bench->add_option("--python", o->python,
                    "Interpreter for tests (default: the first python3 on PATH)");
  bench->add_option("--runner", o->runner,
                    "slurm: run every bug's tests as Slurm jobs; local or torchrun (the default): "
                    "one-rank bugs as "
                    "one process, multi-rank bugs torchrun-style");
  bench->add_option("--slurm-partition", o->slurm_partition,
                    "--runner slurm: the partition (default: the cluster's)");
  bench->add_option("--slurm-gpus-per-node", o->slurm_gpus_per_node,
                    "--runner slurm: GPUs per node (gres gpu)");
  bench
      ->add_option("--slurm-arg", o->slurm_args,
                   "--runner slurm: one more sbatch argument; repeatable")
      ->allow_extra_args(false);
  AddLlmFlags(*bench, o->llm,
              "Also rank with an OpenAI-compatible server at URL and compare with the heuristic",
              "Also ask the LLM for up to N edits per bug (per fix with --realfix)");
  // --realfix runs the real-fix benchmark instead, with the same --jobs and outputs.
  auto realfix = std::make_shared<realfix::BenchFlags>();
  realfix::AddFlags(*bench, *realfix);
  // --realbugs runs the real-bug benchmark, with --bug, --split, --mirror-root and the outputs.
  auto realbugs = std::make_shared<realbugs::BenchFlags>();
  realbugs::AddFlags(*bench, *realbugs);
  bench->callback([o, realfix, realbugs, exit_status] {
    if (absl::Status llm = CheckLlmFlags(o->llm); !llm.ok()) {
      std::cerr << "smallfix: " << llm.message() << "\n";
      *exit_status = kExitBadInput;
      return;
    }
    if (realfix->enabled && realbugs->enabled) {
      std::cerr << "smallfix: --realfix and --realbugs are two benchmarks: give one\n";
      *exit_status = kExitBadInput;
      return;
    }
    const bool split_flags =
        !realfix->split.empty() || realfix->mirror_root != realfix::BenchFlags().mirror_root;
    if (split_flags && !realfix->enabled && !realbugs->enabled) {
      std::cerr << "smallfix: --split and --mirror-root need --realfix or --realbugs\n";
      *exit_status = kExitBadInput;
      return;
    }
    if (realbugs->enabled) {
      *exit_status =
          realbugs::RunBench(*realbugs,
                             {o->bugs, realfix->split, realfix->mirror_root, o->json, o->markdown,
                              o->chart, o->templates, o->jobs, o->timeout, !o->cold, o->llm},
                             InstallInterruptHandlers());
      return;
    }
    *exit_status =
        realfix->enabled
            ? realfix::RunBench(*realfix, {o->jobs, o->json, o->markdown, o->templates, o->llm},
                                InstallInterruptHandlers())
            : Run(*o);
  });
}

}  // namespace smallfix::cli
