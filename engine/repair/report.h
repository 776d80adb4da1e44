#ifndef SMALLFIX_ENGINE_REPAIR_REPORT_H_
#define SMALLFIX_ENGINE_REPAIR_REPORT_H_

#include <nlohmann/json.hpp>
#include <string>

#include "engine/repair/pipeline.h"

namespace smallfix {

// The JSON object of `repair --json` (the contract in docs/design.md, "JSON").
nlohmann::json ReportJson(const RepairReport& report);

// The human report: the failure, the sites, each candidate tried with its stages, and the
// winning diff.
std::string ReportText(const RepairReport& report, bool validated);

// SARIF 2.1.0: one result per candidate (rule = template), each with its fix as
// line-range replacements, for code-scanning UIs.
nlohmann::json ReportSarif(const RepairReport& report);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_REPORT_H_
