#ifndef SMALLFIX_ENGINE_SCAN_SCAN_EXAMPLES_H_
#define SMALLFIX_ENGINE_SCAN_SCAN_EXAMPLES_H_

#include <vector>

#include "engine/patterns/api_history.h"
#include "engine/patterns/example_check.h"
#include "engine/patterns/template.h"

namespace smallfix {

// Checks each example of `t`'s scan stanza: scanning its code (as example.py, filter
// included, so a filter that would skip a bug fails here) must flag exactly its lines.
// Nothing for a template without a stanza.
std::vector<ExampleResult> CheckScanExamples(const Template& t, const ApiHistory* history);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SCAN_SCAN_EXAMPLES_H_
