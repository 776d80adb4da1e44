#ifndef SMALLFIX_ENGINE_BENCH_REALFIX_REALFIX_BENCH_H_
#define SMALLFIX_ENGINE_BENCH_REALFIX_REALFIX_BENCH_H_

#include <CLI/CLI.hpp>
#include <atomic>
#include <string>
#include <vector>

#include "engine/repair/llm_attach.h"

namespace smallfix::realfix {

// `smallfix bench --realfix`'s own flags; --jobs, --json, --markdown and --templates are the
// bench command's and are passed in.
struct BenchFlags {
  bool enabled = false;  // --realfix
  std::string split;     // "" (all), dev or test
  std::string mirror_root = "/work/.mirror";
  int max_candidates = 12;  // kept per site; 0: all (how many right fixes the generator has at all)
  std::string fixes;        // default: benchmarks/realfix/fixes.jsonl of the source tree
  std::string tree = "all";
  int limit = 0;                 // 0: every fix
  std::vector<std::string> ids;  // --fix: only these ids (empty: all)
  int min_fault_lines = 0;       // --min-fault-lines: only fixes changing at least this many lines
};

struct SharedFlags {
  int jobs = 1;
  std::string json, markdown, templates;
  LlmFlags llm;  // bench --llm: the model ranks (and with --llm-propose proposes) at every fix
};

// Adds --realfix, --split, --mirror-root, --fixes, --tree, --limit, --fix and --min-fault-lines to
// the bench command.
void AddFlags(CLI::App& bench, BenchFlags& flags);

// Runs the fixes and writes the outputs; returns the exit status (0 done, 2 bad input or an
// output that could not be written, 128+signal when interrupted).
int RunBench(const BenchFlags& flags, const SharedFlags& shared, const std::atomic<bool>* cancel);

}  // namespace smallfix::realfix

#endif  // SMALLFIX_ENGINE_BENCH_REALFIX_REALFIX_BENCH_H_
