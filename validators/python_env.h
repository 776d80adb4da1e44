#ifndef SMALLFIX_VALIDATORS_PYTHON_ENV_H_
#define SMALLFIX_VALIDATORS_PYTHON_ENV_H_

#include <map>
#include <string>

#include "absl/status/statusor.h"

namespace smallfix {

// The environment test commands run in: `python` and `python3` on PATH are `interpreter`
// (Debian's /usr/bin/python3 has torch; a pyenv python3 earlier on PATH may not), no
// bytecode is written into the workspace, output is unbuffered so a killed run still shows
// what it printed. Creates `shim_dir` with the two links.
absl::StatusOr<std::map<std::string, std::string>> PythonEnvironment(const std::string& shim_dir,
                                                                    const std::string& interpreter);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_PYTHON_ENV_H_
