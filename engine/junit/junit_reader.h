#ifndef SMALLFIX_ENGINE_JUNIT_JUNIT_READER_H_
#define SMALLFIX_ENGINE_JUNIT_JUNIT_READER_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace smallfix {

// One <testcase> of a JUnit XML report.
struct JUnitCase {
  std::string classname;  // "tests.test_zero"
  std::string name;       // "test_frozen_embeddings_step[param]"
  enum class Outcome { kPassed, kFailed, kError, kSkipped } outcome = Outcome::kPassed;
  std::string message;  // the failure's or error's message attribute
  std::string text;     // its body: pytest's traceback in the configured --tb style
};

// True when `text` looks like JUnit XML (a <testsuite> or <testsuites> element).
bool LooksLikeJUnit(std::string_view text);

// Reads the test cases of pytest's (and most tools') JUnit XML. A small reader for this
// one format: elements, attributes, the five named entities, numeric references and CDATA;
// no DTDs. Errors name the byte offset where the XML stops making sense.
absl::StatusOr<std::vector<JUnitCase>> ReadJUnit(std::string_view xml);

// A failure or an error: the case did not pass.
inline bool IsFailure(const JUnitCase& test) {
  return test.outcome == JUnitCase::Outcome::kFailed || test.outcome == JUnitCase::Outcome::kError;
}

// The cases of one or more reports counted: skipped cases are not tests that ran.
struct CaseTally {
  int tests = 0;                    // cases that ran (not skipped)
  int failures = 0;                 // failures + errors
  std::vector<std::string> failed;  // names, in report order
  std::vector<std::string> passed;
};

// Adds `cases` to `tally` (a run over ranks adds each rank's report).
void TallyCases(const std::vector<JUnitCase>& cases, CaseTally& tally);
inline CaseTally TallyCases(const std::vector<JUnitCase>& cases) {
  CaseTally tally;
  TallyCases(cases, tally);
  return tally;
}

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_JUNIT_JUNIT_READER_H_
