#ifndef SMALLFIX_ENGINE_DOCTOR_PYTHON_CHECKS_H_
#define SMALLFIX_ENGINE_DOCTOR_PYTHON_CHECKS_H_

#include <string>
#include <vector>

#include "engine/doctor/check.h"

namespace smallfix::doctor {

// The interpreter that runs the project's tests and what validation imports with it: torch
// (with torch.distributed and gloo when `world_size` > 1), pytest (its JUnit report is how
// outcomes are read) and coverage (only `repair --coverage` needs it). `origin` says where the
// interpreter was named ("--python", ".smallfix.yaml", "the first python3 on PATH").
std::vector<Check> PythonChecks(const std::string& interpreter, const std::string& origin,
                                int world_size);

}  // namespace smallfix::doctor

#endif  // SMALLFIX_ENGINE_DOCTOR_PYTHON_CHECKS_H_
