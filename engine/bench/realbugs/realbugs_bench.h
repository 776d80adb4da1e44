#ifndef SMALLFIX_ENGINE_BENCH_REALBUGS_REALBUGS_BENCH_H_
#define SMALLFIX_ENGINE_BENCH_REALBUGS_REALBUGS_BENCH_H_

#include <CLI/CLI.hpp>
#include <atomic>
#include <string>
#include <vector>

#include "engine/repair/pipeline.h"
#include "engine/repair/validation_order.h"

namespace smallfix::realbugs {

// `smallfix bench --realbugs`'s own flags.
struct BenchFlags {
  bool enabled = false;  // --realbugs
  bool verify = false;   // --verify: check each bug instead of repairing it
  std::string tree_source = "auto";
  std::string outputs;         // --outputs DIR: each bug's failing output
  bool localize_only = false;  // --localize-only: rank sites from saved outputs, run nothing
  std::string from_outputs;    // --from-outputs DIR: where --localize-only reads them
  std::string bugs_file;       // default: benchmarks/realbugs/bugs.jsonl
  double budget = 600;         // --budget: seconds a bug's repair may take
  int weak_lookahead = kDefaultWeakLookahead;  // --weak-lookahead: RunOptions'
};

// What the bench command's other flags say (--bug, --split, --mirror-root, --jobs, ...).
struct SharedFlags {
  std::vector<std::string> ids;
  std::string split, mirror_root, json, markdown, chart, templates;
  int jobs = 1;
  double timeout = 0;
  bool warm = true;
  LlmFlags llm;  // --llm and the flags that go with it
};

void AddFlags(CLI::App& bench, BenchFlags& flags);

// Verifies or repairs the chosen bugs and writes the outputs; the exit status (0 done, 1
// some bug did not verify, 2 bad input or an output not written, 128+signal when interrupted).
int RunBench(const BenchFlags& flags, const SharedFlags& shared, const std::atomic<bool>* cancel);

}  // namespace smallfix::realbugs

#endif  // SMALLFIX_ENGINE_BENCH_REALBUGS_REALBUGS_BENCH_H_
