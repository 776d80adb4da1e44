#include "engine/bench/realfix/realfix_bench.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <set>
#include <thread>

#include "absl/strings/str_format.h"
#include "engine/bench/realfix/fix_runner.h"
#include "engine/bench/realfix/realfix_results.h"
#include "engine/bench/smallfix/progress_bar.h"
#include "engine/bench/smallfix/run_each.h"

namespace smallfix::realfix {
namespace {

constexpr int kExitDone = 0;
constexpr int kExitBadInput = 2;

// The progress bar speaks of bugs; a fix is shown by its id and how it ended.
bench::BugResult ForProgress(const FixResult& result) {
  bench::BugResult shown;
  shown.id = result.id;
  shown.seconds = result.seconds;
  shown.error = result.error;
  const Attempt& a = result.with_symptom;
  shown.outcome = !result.error.empty() ? "error"
                  : a.candidates == 0   ? "no-candidates"
                  : a.rank              ? "correct@" + std::to_string(*a.rank)
                           : absl::StrFormat("%d candidate(s), none correct", a.candidates);
  return shown;
}

}  // namespace

void AddFlags(CLI::App& bench, BenchFlags& flags) {
  CLI::Option* realfix =
      bench.add_flag("--realfix", flags.enabled,
                     "Run the real-fix benchmark (benchmarks/realfix) instead of the bugs");
  // --split and --mirror-root serve --realbugs too; the bench command checks that one of the
  // two is given.
  bench
      .add_option("--split", flags.split,
                  "--realfix, --realbugs: only the dev or the test split (default both)")
      ->check(CLI::IsMember({"dev", "test"}));
  bench.add_option("--mirror-root", flags.mirror_root,
                   "--realfix, --realbugs: directory of git dirs, OWNER+NAME/repo or OWNER/NAME "
                   "(default /work/.mirror)");
  bench
      .add_option("--fixes", flags.fixes,
                  "--realfix: the fixes file (default benchmarks/realfix/fixes.jsonl)")
      ->needs(realfix);
  bench
      .add_option(
          "--tree", flags.tree,
          "--realfix: Python files written from the parent tree: all, or package (the fault file's "
          "top directory)")
      ->check(CLI::IsMember({"all", "package"}))
      ->needs(realfix);
  bench
      .add_option("--limit", flags.limit,
                  "--realfix: only the first N fixes (after the other filters)")
      ->needs(realfix);
  bench.add_option("--fix", flags.ids, "--realfix: only the fix with this id; repeatable")
      ->needs(realfix);
  bench
      .add_option(
          "--min-fault-lines", flags.min_fault_lines,
          "--realfix: only fixes that change at least N distinct lines (2: the multi-line fixes)")
      ->needs(realfix);
  bench
      .add_option("--max-candidates", flags.max_candidates,
                  "--realfix: candidates kept per site (default 12; 0: all, to see what the "
                  "generator has beyond the cap)")
      ->check(CLI::NonNegativeNumber)
      ->needs(realfix);
}

int RunBench(const BenchFlags& flags, const SharedFlags& shared, const std::atomic<bool>* cancel) {
  const std::string fixes_file =
      flags.fixes.empty() ? std::string(SMALLFIX_REALFIX_DIR) + "/fixes.jsonl" : flags.fixes;
  absl::StatusOr<std::vector<FixSpec>> fixes = LoadFixes(fixes_file);
  if (!fixes.ok()) {
    std::cerr << "smallfix: " << fixes.status().message() << "\n";
    return kExitBadInput;
  }
  if (shared.jobs < 1 || flags.limit < 0 || flags.min_fault_lines < 0) {
    std::cerr << "smallfix: --jobs must be 1 or more, --limit and --min-fault-lines 0 or more\n";
    return kExitBadInput;
  }
  const std::set<std::string> ids(flags.ids.begin(), flags.ids.end());
  std::set<std::string> unknown = ids;
  for (const FixSpec& fix : *fixes) unknown.erase(fix.id);
  if (!unknown.empty()) {
    std::cerr << "smallfix: --fix " << *unknown.begin() << ": no such fix in " << fixes_file
              << "\n";
    return kExitBadInput;
  }
  std::vector<FixSpec> chosen;
  for (FixSpec& fix : *fixes) {
    if (!flags.split.empty() && fix.split != flags.split) continue;
    if (!ids.empty() && !ids.count(fix.id)) continue;
    if (static_cast<int>(std::set<int>(fix.fault_lines.begin(), fix.fault_lines.end()).size()) <
        flags.min_fault_lines) {
      continue;
    }
    if (flags.limit > 0 && static_cast<int>(chosen.size()) >= flags.limit) break;
    chosen.push_back(std::move(fix));
  }
  RunOptions options;
  options.mirror_root = flags.mirror_root;
  options.scope = flags.tree == "package" ? TreeScope::kPackage : TreeScope::kAll;
  options.templates_dir = shared.templates;
  options.max_candidates = flags.max_candidates;
  options.llm = shared.llm;
  options.cancel = cancel;

  RealfixRun run;
  run.split = flags.split.empty() ? "all" : flags.split;
  run.fixes_file = fixes_file;
  run.tree = flags.tree;
  run.jobs = shared.jobs;
  run.llm = !shared.llm.url.empty();
  run.llm_propose = shared.llm.propose;
  const auto start = std::chrono::steady_clock::now();
  bench::ProgressBar progress(static_cast<int>(chosen.size()), isatty(STDERR_FILENO) != 0,
                              std::cerr);
  run.results = bench::RunEach<FixResult>(chosen.size(), shared.jobs, cancel, [&](size_t i) {
    progress.Started(chosen[i].id);
    FixResult result = RunFix(chosen[i], options);
    progress.Finished(ForProgress(result));
    return result;
  });
  progress.Close();
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::cout << RealfixSummary(run);
  bool written = true;
  if (!shared.json.empty())
    written &= bench::WriteOutput(shared.json, RealfixJson(run).dump(2) + "\n", "--json");
  if (!shared.markdown.empty())
    written &= bench::WriteOutput(shared.markdown, RealfixMarkdown(run), "--markdown");
  if (cancel != nullptr && cancel->load()) {
    std::cerr << "smallfix: interrupted; results cover the fixes that finished\n";
    return 130;
  }
  return written ? kExitDone : kExitBadInput;
}

}  // namespace smallfix::realfix
