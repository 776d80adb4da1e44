#ifndef SMALLFIX_TESTS_FUZZ_SHAPES_FUZZ_TARGET_H_
#define SMALLFIX_TESTS_FUZZ_SHAPES_FUZZ_TARGET_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/localize/argument_check.h"
#include "engine/localize/host_prefix.h"
#include "engine/localize/named_class.h"
#include "engine/localize/package_layout.h"
#include "engine/localize/path_mapper.h"
#include "engine/localize/recursion_cycle.h"
#include "engine/localize/repo_search.h"
#include "engine/localize/site_ranker.h"
#include "engine/localize/source_facts.h"
#include "engine/localize/symptom.h"
#include "engine/localize/traceback_parser.h"

namespace smallfix {

// One fuzz input through the readers of multi-node and installed-package failures: host
// prefixes line by line, the packaging metadata (the input cut in three: setup.py, setup.cfg,
// pyproject.toml) and the path mapping it drives, recursion cycles and the frame to guard,
// classes named by a message and their definitions (the input is also a repo file, so class
// bodies come from it), and argument checks raised in wrappers. No file system is touched.
// Shared by the libFuzzer target and the unit test that replays seeds under gcc.
inline void FuzzShapes(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  HostPrefixes hosts;
  for (size_t start = 0; start < text.size() && start < 8192;) {
    const size_t end = std::min(text.find('\n', start), text.size());
    (void)hosts.Split(text.substr(start, end - start));
    start = end + 1;
  }

  const size_t third = text.size() / 3;
  const PackageLayout layout = PackageLayout::FromTexts(
      text.substr(0, third), text.substr(third, third), text.substr(2 * third));
  (void)layout.Installs(text.substr(0, 16));
  (void)layout.RepoPaths(text.substr(0, 64));
  const PathMapper mapper =
      PathMapper::ForFiles({"accelerator/cpu.py", "comm/wrappers.py", "engine/trainer.py",
                            "utils/move.py", "tests/test_comm.py", "a/util.py", "b/util.py"},
                           layout);

  ParsedFailure parsed = ParseFailureText(text);
  for (const Trace& trace : parsed.traces) {
    std::vector<bool> in_repo;
    for (const TraceFrame& frame : trace.frames)
      in_repo.push_back(mapper.Map(frame.path).has_value());
    if (std::optional<RecursionCycle> cycle = FindRecursionCycle(trace.frames)) {
      (void)CycleFrameToGuard(trace.frames, *cycle, in_repo);
    }
  }
  RepoSearch search = RepoSearch::ForTexts(
      {{"engine/trainer.py", std::string(text.substr(0, 16384))},
       {"comm/wrappers.py",
        "def _check(tensor):\n    if not isinstance(tensor, T):\n        raise TypeError('Expected "
        "tensor to be of type T')\n\ndef all_reduce(tensor):\n    _check(tensor)\n"}});
  SourceFacts facts("/nonexistent-smallfix-fuzz-repo");
  (void)RankSites(parsed, mapper, facts, LocalizeOptions(), &search);
  const Symptom symptom = ClassifySymptom(text.substr(0, 48), text.substr(0, 300));
  if (std::optional<NamedClass> named = ClassNamedBy(symptom)) {
    (void)NamedClassSites(*named, search, 8);
  }
  for (const char* name : {"T", "Trainer", "MeshConfig"})
    (void)NamedClassSites({name, "state"}, search, 8);
  (void)ArgumentCheckCaller(symptom,
                            {{"comm/wrappers.py", 3, false},
                             {"comm/wrappers.py", 6, false},
                             {"engine/trainer.py", static_cast<int>(size % 40), false}},
                            search);
}

}  // namespace smallfix

#endif  // SMALLFIX_TESTS_FUZZ_SHAPES_FUZZ_TARGET_H_
