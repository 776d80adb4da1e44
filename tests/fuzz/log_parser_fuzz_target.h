#ifndef SMALLFIX_TESTS_FUZZ_LOG_PARSER_FUZZ_TARGET_H_
#define SMALLFIX_TESTS_FUZZ_LOG_PARSER_FUZZ_TARGET_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "validators/junit_reader.h"
#include "engine/localize/path_mapper.h"
#include "engine/localize/site_ranker.h"
#include "engine/localize/source_facts.h"
#include "engine/localize/symptom.h"
#include "engine/localize/traceback_parser.h"

namespace smallfix {

// One fuzz input through everything that reads failure text: the line reader, rank
// prefixes, the traceback parser, the JUnit reader, symptom classification and site
// ranking (over a fixed file list, so no file system is touched). Shared by the libFuzzer
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
  if (LooksLikeJUnit(text)) (void)ReadJUnit(text);
  (void)ClassifySymptom(text.substr(0, 64), text);
}

}  // namespace smallfix

#endif  // SMALLFIX_TESTS_FUZZ_LOG_PARSER_FUZZ_TARGET_H_
