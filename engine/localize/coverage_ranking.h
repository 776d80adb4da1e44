#ifndef SMALLFIX_ENGINE_LOCALIZE_COVERAGE_RANKING_H_
#define SMALLFIX_ENGINE_LOCALIZE_COVERAGE_RANKING_H_

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/junit/junit_reader.h"
#include "engine/localize/localization.h"
#include "engine/localize/path_mapper.h"

namespace smallfix {

// Per-line suspiciousness keyed by (repo-relative file, 1-based line).
using LineScores = std::map<std::pair<std::string, int>, double>;

// Spectrum-based ranking: Ochiai(line) = failed(line) / sqrt(total_failed *
// (failed(line) + passed(line))), where failed/passed(line) count the failing/passing tests
// that ran the line.
//
// `coverage_json` is coverage.py's `coverage json --show-contexts` output of a run with
// `dynamic_context = test_function`; `failed_tests` and `passed_tests` name tests as JUnit
// does ("test_name" or "test_name[param]"); a context matches a test when its last dotted
// part is the test's name without parameters. Test files are left out (not repair sites).
absl::StatusOr<LineScores> OchiaiFromCoverageJson(std::string_view coverage_json,
                                                  const std::vector<std::string>& failed_tests,
                                                  const std::vector<std::string>& passed_tests,
                                                  const PathMapper& mapper);

// OchiaiFromCoverageJson over the JUnit cases of the same run (validators/failure_capture.h
// runs it), with paths mapped onto `repo_root`. An error says why there are no scores.
absl::StatusOr<LineScores> OchiaiFromRun(const std::string& repo_root,
                                         std::string_view coverage_json,
                                         std::string_view junit_xml);

// Mixes coverage into traceback-ranked sites: score = trace_weight * traceback score +
// (1 - trace_weight) * coverage score, and adds the most suspicious covered lines that no
// traceback named (at most 20) so that failures without a useful traceback still get sites.
// `boosted` lines take their score there in place of coverage's, whether the failing run
// reached them or not, and go ahead of equal scores (AssertionWriters).
void CombineWithCoverage(const LineScores& coverage, double trace_weight, const Symptom& symptom,
                         const LineScores& boosted, std::vector<Site>* sites);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_COVERAGE_RANKING_H_
