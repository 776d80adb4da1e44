#ifndef SMALLFIX_ENGINE_PATTERNS_SARIF_H_
#define SMALLFIX_ENGINE_PATTERNS_SARIF_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/patterns/match.h"

namespace smallfix {

// The parts of a SARIF 2.1.0 log that `repair --sarif` and `scan --sarif` share: a
// template as a rule, a candidate's edit as a fix, and the log around them.

// One rule per template: its id, summary and family.
nlohmann::json SarifRule(const Candidate& candidate);

// A result at the candidate's site whose fix is the candidate's edit, as the smallest
// range of whole lines that differs in each file it changes.
nlohmann::json SarifResult(const Candidate& candidate, const std::string& level,
                           const std::string& message, nlohmann::json properties);

// The log of one run of smallfix with these rules and results.
nlohmann::json SarifLog(nlohmann::json rules, nlohmann::json results);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_PATTERNS_SARIF_H_
