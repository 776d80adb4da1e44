#include "engine/bench/realbugs/realbugs_bench.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "engine/bench/realbugs/real_bug_runner.h"
#include "engine/bench/realbugs/realbugs_results.h"
#include "engine/bench/smallfix/progress_bar.h"
#include "engine/bench/smallfix/run_each.h"

namespace smallfix::realbugs {
namespace {

constexpr int kExitDone = 0;
constexpr int kExitNotVerified = 1;
constexpr int kExitBadInput = 2;

// The progress bar speaks of bugs of the small-fix benchmark; a real bug is shown by its id
// and how it ended.
bench::BugResult ForProgress(const RealBugResult& result) {
  bench::BugResult shown;
  shown.id = result.id;
  shown.seconds = result.seconds + result.cold_seconds;
  shown.error = result.error;
  shown.outcome = !result.error.empty()          ? "error"
                  : result.verify_detail.empty() ? result.outcome
                                                 : "not verified: " + result.verify_detail;
  return shown;
}

// What is wrong with a combination of flags, or "".
std::string BadFlags(const BenchFlags& flags, const SharedFlags& shared) {
  if (flags.localize_only && flags.from_outputs.empty())
    return "--localize-only reads saved failing outputs: give --from-outputs DIR";
  if (flags.verify && !shared.llm.url.empty())
    return "--verify runs no repair: --llm needs a repair or --localize-only";
  if (shared.jobs < 1) return "--jobs must be 1 or more";
  return "";
}

}  // namespace

void AddFlags(CLI::App& bench, BenchFlags& flags) {
  CLI::Option* realbugs = bench.add_flag("--realbugs", flags.enabled,
                                         "Run the real-bug benchmark (benchmarks/realbugs): repair "
                                         "each bug from its failing test's output");
  bench
      .add_flag(
          "--verify", flags.verify,
          "--realbugs: check that each bug's failing tests fail before the fix and pass after it")
      ->needs(realbugs);
  bench
      .add_option("--tree-source", flags.tree_source,
                  "--realbugs: where trees come from: auto (the history under --mirror-root, else "
                  "PyPI), git or pypi")
      ->check(CLI::IsMember({"auto", "git", "pypi"}))
      ->needs(realbugs);
  bench
      .add_option("--outputs", flags.outputs,
                  "--realbugs: write each bug's failing output to DIR/<id>.txt")
      ->needs(realbugs);
  CLI::Option* localize_only =
      bench
          .add_flag("--localize-only", flags.localize_only,
                    "--realbugs: only localize, from each bug's failing output saved by an "
                    "earlier run (--from-outputs DIR): the run's localization rank and the "
                    "fix's rank among the candidates, no test run")
          ->needs(realbugs);
  bench
      .add_option("--from-outputs", flags.from_outputs,
                  "--realbugs --localize-only: the --outputs DIR of an earlier run")
      ->check(CLI::ExistingDirectory)
      ->needs(localize_only);
  localize_only->excludes("--verify");
  bench
      .add_option("--budget", flags.budget,
                  "--realbugs: seconds a bug's repair may take, then it stops (default 600)")
      ->check(CLI::NonNegativeNumber)
      ->needs(realbugs);
  bench
      .add_option("--weak-lookahead", flags.weak_lookahead,
                  "--realbugs: as repair's --weak-lookahead (default 8; 0: stop at a weak "
                  "plausible patch, as before the look-ahead)")
      ->check(CLI::NonNegativeNumber)
      ->needs(realbugs);
  bench
      .add_option("--bugs-file", flags.bugs_file,
                  "--realbugs: the bugs file (default benchmarks/realbugs/bugs.jsonl)")
      ->needs(realbugs);
}

int RunBench(const BenchFlags& flags, const SharedFlags& shared, const std::atomic<bool>* cancel) {
  const std::string bugs_file =
      flags.bugs_file.empty() ? RealbugsDir() + "/bugs.jsonl" : flags.bugs_file;
  std::vector<std::string> ids;
  for (const std::string& flag : shared.ids) {
    for (absl::string_view id : absl::StrSplit(flag, ',', absl::SkipWhitespace()))
      ids.emplace_back(id);
  }
  absl::StatusOr<std::vector<RealBug>> bugs = LoadRealBugs(bugs_file, ids, shared.split);
  if (!bugs.ok()) {
    std::cerr << "smallfix: " << bugs.status().message() << "\n";
    return kExitBadInput;
  }
  if (const std::string bad = BadFlags(flags, shared); !bad.empty()) {
    std::cerr << "smallfix: " << bad << "\n";
    return kExitBadInput;
  }
  if (!flags.outputs.empty()) {
    std::error_code error;
    std::filesystem::create_directories(flags.outputs, error);
    if (error) {
      std::cerr << "smallfix: --outputs " << flags.outputs << ": " << error.message() << "\n";
      return kExitBadInput;
    }
  }
  RunOptions options;
  options.trees.mirror_root = shared.mirror_root;
  options.trees.from = flags.tree_source;
  if (shared.timeout > 0) options.timeout_seconds = shared.timeout;
  options.warm = shared.warm;
  options.templates_dir = shared.templates;
  options.outputs_dir = flags.outputs;
  options.from_outputs_dir = flags.from_outputs;
  options.budget_seconds = flags.budget;
  options.weak_lookahead = flags.weak_lookahead;
  options.llm = shared.llm;
  options.cancel = cancel;

  RealbugsRun run;
  run.mode = flags.verify ? "verify" : flags.localize_only ? "localize" : "repair";
  run.split = shared.split.empty() ? "all" : shared.split;
  run.jobs = shared.jobs;
  run.warm = shared.warm;
  if (!shared.llm.url.empty()) run.llm_propose = shared.llm.propose;
  const auto start = std::chrono::steady_clock::now();
  bench::ProgressBar progress(static_cast<int>(bugs->size()), isatty(STDERR_FILENO) != 0,
                              std::cerr);
  run.results = bench::RunEach<RealBugResult>(bugs->size(), shared.jobs, cancel, [&](size_t i) {
    progress.Started((*bugs)[i].id);
    const RealBug& bug = (*bugs)[i];
    RealBugResult result = flags.verify          ? VerifyBug(bug, options)
                           : flags.localize_only ? LocalizeBug(bug, options)
                                                 : RepairBug(bug, options);
    progress.Finished(ForProgress(result));
    return result;
  });
  progress.Close();
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::cout << RealbugsSummary(run);
  bool written = true;
  if (!shared.json.empty())
    written &= bench::WriteOutput(shared.json, RealbugsJson(run).dump(2) + "\n", "--json");
  if (!shared.markdown.empty())
    written &= bench::WriteOutput(shared.markdown, RealbugsMarkdown(run), "--markdown");
  if (!shared.chart.empty())
    written &= bench::WriteOutput(shared.chart, RealbugsSvg(run), "--chart");
  if (cancel != nullptr && cancel->load()) {
    std::cerr << "smallfix: interrupted; results cover the bugs that finished\n";
    return 130;
  }
  if (!written) return kExitBadInput;
  const RealbugsTotals totals = Totals(run.results);
  return flags.verify && totals.verified < totals.bugs ? kExitNotVerified : kExitDone;
}

}  // namespace smallfix::realbugs
