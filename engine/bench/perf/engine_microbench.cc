// Micro-benchmarks (Google Benchmark) of the engine's inner loops on a real-shaped file:
// parsing, running a template-sized query over one statement, and applying an edit with its
// re-parse; and generating every template's candidates at one site of a 400K-line repo.
// Run: build/benchmarks/engine_microbench
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/index/repo_index.h"
#include "engine/patterns/catalogue.h"
#include "engine/repair/candidate_generator.h"
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
    text += "class Reducer" + std::to_string(i) +
            ":\n"
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
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(text.size()));
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

// What ApplyEdits cost before Document::Reparse: the edited text parsed from scratch.
void BM_InsertGuardAndFullParse(benchmark::State& state) {
  const Document document = *Document::Parse("pkg/reduce.py", Module());
  const TSNode statement = *StatementAtLine(document, 11);
  for (auto _ : state) {
    EditSet edits;
    (void)edits.Add(*InsertBefore(document, statement, "if p.grad is None:\n    continue"));
    benchmark::DoNotOptimize(Document::Parse(document.path(), *edits.Apply(document.text())));
  }
}
BENCHMARK(BM_InsertGuardAndFullParse);

// A repo of 270 such modules (about 400K lines) on disk, indexed once; candidates at one site.
class GenerateFixture : public benchmark::Fixture {
 public:
  void SetUp(const benchmark::State&) override {
    if (index_) return;
    // A folder of this run's own (two runs at once do not share one), removed at exit.
    std::string pattern =
        (std::filesystem::temp_directory_path() / "smallfix-microbench-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    root_ = pattern;
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(root_, ignored);
    });
    std::filesystem::create_directories(root_ / "pkg");
    const std::string text = Module();
    for (int i = 0; i < 270; ++i) {
      std::ofstream(root_ / "pkg" / ("reduce" + std::to_string(i) + ".py")) << text;
    }
    lines_ = 270 * (std::count(text.begin(), text.end(), '\n'));
    index_ = std::make_unique<RepoIndex>(*RepoIndex::Build(root_.string()));
    catalogue_ = std::make_unique<Catalogue>(*Catalogue::Load(SMALLFIX_SOURCE_TEMPLATES));
  }

  // `numel = p.grad.numel()` in the middle of the file; with `one_fix`, also the two lines
  // after it (`if numel > ...`, `dist.all_reduce(...)`) as lines of the same fix.
  void Generate(benchmark::State& state, const std::string& symptom, bool one_fix = false) {
    auto at = [](int line) {
      Site site;
      site.file = "pkg/reduce100.py";
      site.line = line;
      site.score = 1.0;
      return site;
    };
    std::vector<Site> sites = {at(11 + 14 * 50)};
    if (one_fix) {
      sites.push_back(at(12 + 14 * 50));
      sites.push_back(at(13 + 14 * 50));
    }
    GenerateOptions options;
    options.one_fix = one_fix;
    size_t candidates = 0;
    for (auto _ : state) {
      absl::StatusOr<std::vector<ScoredCandidate>> out = GenerateCandidates(
          root_.string(), sites, Symptom::FromText(symptom), *catalogue_, index_.get(), options);
      candidates = out.ok() ? out->size() : 0;
      benchmark::DoNotOptimize(out);
    }
    state.counters["candidates"] = static_cast<double>(candidates);
    state.counters["repo_lines"] = static_cast<double>(lines_);
    state.counters["templates"] = static_cast<double>(catalogue_->templates.size());
  }

 protected:
  static inline std::filesystem::path root_;
  static inline std::unique_ptr<RepoIndex> index_;
  static inline std::unique_ptr<Catalogue> catalogue_;
  static inline int64_t lines_ = 0;
};

BENCHMARK_DEFINE_F(GenerateFixture, WithSymptom)(benchmark::State& state) {
  Generate(state, "AttributeError: 'NoneType' object has no attribute 'numel'");
}
BENCHMARK_REGISTER_F(GenerateFixture, WithSymptom)->Unit(benchmark::kMillisecond);

BENCHMARK_DEFINE_F(GenerateFixture, WithoutSymptom)(benchmark::State& state) {
  Generate(state, "");
}
BENCHMARK_REGISTER_F(GenerateFixture, WithoutSymptom)->Unit(benchmark::kMillisecond);

// Three lines of one fix: each site's candidates plus those that edit several (divide by 3
// for the time per site).
BENCHMARK_DEFINE_F(GenerateFixture, OneFixThreeSites)(benchmark::State& state) {
  Generate(state, "", true);
}
BENCHMARK_REGISTER_F(GenerateFixture, OneFixThreeSites)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace smallfix

BENCHMARK_MAIN();
