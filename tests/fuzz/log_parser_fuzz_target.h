#ifndef SMALLFIX_TESTS_FUZZ_LOG_PARSER_FUZZ_TARGET_H_
#define SMALLFIX_TESTS_FUZZ_LOG_PARSER_FUZZ_TARGET_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/localize/pasted_forms.h"
#include "engine/localize/path_mapper.h"
#include "engine/localize/rank_prefix.h"
#include "engine/localize/repo_search.h"
#include "engine/localize/site_ranker.h"
#include "engine/localize/source_facts.h"
#include "engine/localize/symptom.h"
#include "engine/localize/traceback_parser.h"
#include "engine/junit/junit_reader.h"

namespace smallfix {

// One fuzz input through everything that reads failure text: the line reader, rank and
// logger prefixes, the pasted-form reader (rich, loguru, IPython, wrapped frames), the
// traceback parser, the JUnit reader, symptom classification, the repo search that a message
// alone drives, and site ranking (over a fixed file list and in-memory sources, so no file
// system is touched). Shared by the libFuzzer
// target and the unit test that replays the seed corpus under gcc.
inline void FuzzLogParser(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const PathMapper* const mapper = new PathMapper(PathMapper::ForFiles(
      {"fastzero/runtime/engine.py", "fastzero/utils/config.py", "examples/train.py",
       "tests/test_zero.py", "setup.py"}));
  ParsedFailure parsed = ParseFailureText(text);
  for (const Trace& trace : parsed.traces) {
    for (const TraceFrame& frame : trace.frames) (void)mapper->Map(frame.path);
    (void)ClassifySymptom(trace.exception_type, trace.message);
  }
  SourceFacts facts("/nonexistent-smallfix-fuzz-repo");
  (void)RankSites(parsed, *mapper, facts, LocalizeOptions());
  // The same with the repo's text searchable: sources that read attributes of parameters,
  // call functions with keywords and index with keys, so that every search rule can fire.
  RepoSearch search = RepoSearch::ForTexts(
      {{"fastzero/runtime/engine.py",
        "import torch.distributed as dist\nfrom torch.optim import LRScheduler\n"
        "def step(self, opt, cfg):\n    opt.step(closure=None, grad_scale=cfg.scale)\n"
        "    x = cfg[\"zero_optimization\"][\"stage\"]\n    dist.all_gather_into_tensor(x)\n"},
       {"fastzero/utils/config.py",
        "def group_sizes(parallel,\n                world_size):\n    return parallel.group\n"
        "def describe(cfg):\n    return group_sizes(cfg, 4)\n"},
       {"examples/train.py", "step(None, None, None)\n"}});
  (void)RankSites(parsed, *mapper, facts, LocalizeOptions(), &search);
  Symptom symptom = ClassifySymptom(text.substr(0, 80), text.substr(0, 400));
  (void)search.ForSymptom(symptom, 5);
  (void)search.Callers(text.substr(0, 40), 3);
  std::string function;
  (void)search.EnclosingParameters("fastzero/utils/config.py", static_cast<int>(size % 8),
                                   &function);
  PastedForms forms;
  std::vector<std::string> lines;
  for (size_t start = 0; start < text.size() && start < 4096;) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const PrefixedLine line = SplitRankPrefix(text.substr(start, end - start));
    forms.Rewrite(line.stream, line.text, &lines);
    (void)IsCutFrameLine(line.text);
    start = end + 1;
  }
  if (LooksLikeJUnit(text)) (void)ReadJUnit(text);
  (void)ClassifySymptom(text.substr(0, 64), text);
}

}  // namespace smallfix

#endif  // SMALLFIX_TESTS_FUZZ_LOG_PARSER_FUZZ_TARGET_H_
