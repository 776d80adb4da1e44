#ifndef SMALLFIX_ENGINE_PATTERNS_EXAMPLE_CHECK_H_
#define SMALLFIX_ENGINE_PATTERNS_EXAMPLE_CHECK_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/patterns/api_history.h"
#include "engine/patterns/match.h"
#include "engine/patterns/template.h"

namespace smallfix {

struct ExampleResult {
  std::string template_id;
  std::string example;
  bool passed = false;
  std::string detail;  // on failure: a diff of expected and actual, or why nothing matched
};

// Turns an example's "Type: message" into the symptom templates see. The CLI passes the
// localization classifier; Symptom::FromText is the plain fallback.
using SymptomParser = std::function<Symptom(std::string_view)>;

// Checks each example of `t`: its `before` (as example.py, with the example's other files
// as the repo) repaired at `line` for `symptom` must give exactly `after`, or nothing when
// `after` is null.
std::vector<ExampleResult> CheckExamples(const Template& t, const ApiHistory* history,
                                         const SymptomParser& parse_symptom);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_PATTERNS_EXAMPLE_CHECK_H_
