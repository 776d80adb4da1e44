// Micro-benchmarks (Google Benchmark) of the engine's inner loops on a real-shaped file:
// parsing, running a template-sized query over one statement, and applying an edit with its
// re-parse. Run: build/benchmarks/engine_microbench
#include <benchmark/benchmark.h>

#include <string>

#include "engine/source/document.h"
#include "engine/source/edit.h"
#include "engine/source/query.h"
#include "engine/source/statement_edits.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// A 2,000-line module shaped like a ZeRO reducer: classes, loops, collectives.
std::string Module() {
  std::string text = "import torch\nimport torch.distributed as dist\n\n";
  for (int i = 0; i < 100; ++i) {
    text += "class Reducer" + std::to_string(i) + ":\n"
            "    def __init__(self, params, group=None, bucket_size=2 ** 20):\n"
            "        self.params = list(params)\n"
            "        self.group = group\n"
            "        self.bucket_size = bucket_size\n\n"
            "    def reduce(self):\n"
            "        for p in self.params:\n"
            "            numel = p.grad.numel()\n"
            "            if numel > self.bucket_size:\n"
            "                dist.all_reduce(p.grad, group=self.group)\n"
            "            else:\n"
            "                self.pending.append(p)\n"
            "        return f\"{len(self.params)} reduced\"\n\n";
  }
  return text;
}

void BM_Parse(benchmark::State& state) {
  const std::string text = Module();
  for (auto _ : state) {
    benchmark::DoNotOptimize(Document::Parse("pkg/reduce.py", text));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_Parse);

void BM_QueryOnStatement(benchmark::State& state) {
  const Document document = *Document::Parse("pkg/reduce.py", Module());
  const Query query = *Query::Compile(
      R"q(((attribute object: (_) @value attribute: (identifier) @name) (#eq? @name "numel")))q");
  const TSNode statement = *StatementAtLine(document, document.lines().line_count() / 2 + 8);
  for (auto _ : state) {
    benchmark::DoNotOptimize(query.Run(document, statement));
  }
}
BENCHMARK(BM_QueryOnStatement);

void BM_InsertGuardAndReparse(benchmark::State& state) {
  const Document document = *Document::Parse("pkg/reduce.py", Module());
  const TSNode statement = *StatementAtLine(document, 11);  // numel = p.grad.numel()
  for (auto _ : state) {
    EditSet edits;
    (void)edits.Add(*InsertBefore(document, statement, "if p.grad is None:\n    continue"));
    benchmark::DoNotOptimize(ApplyEdits(document, edits));
  }
}
BENCHMARK(BM_InsertGuardAndReparse);

}  // namespace
}  // namespace smallfix

BENCHMARK_MAIN();
