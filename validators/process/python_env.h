#ifndef SMALLFIX_VALIDATORS_PROCESS_PYTHON_ENV_H_
#define SMALLFIX_VALIDATORS_PROCESS_PYTHON_ENV_H_

#include <map>
#include <string>

#include "absl/status/statusor.h"

namespace smallfix {

// The environment test commands run in: `python` and `python3` on PATH are `interpreter`
// (a project's venv, whatever else is on PATH), no bytecode is written into the workspace,
// output is unbuffered so a killed run still shows what it printed. Creates `shim_dir` with
// the two scripts.
absl::StatusOr<std::map<std::string, std::string>> PythonEnvironment(
    const std::string& shim_dir, const std::string& interpreter);

// The interpreter test commands run with when neither --python nor .smallfix.yaml's
// `interpreter:` names one: the first python3 on PATH (an activated venv's; scripts/test.sh
// puts the project's .venv first), as an absolute path; "python3" when PATH has none. The one
// default: every option struct and flag takes it from here.
std::string DefaultInterpreter();

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_PROCESS_PYTHON_ENV_H_
