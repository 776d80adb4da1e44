#ifndef SMALLFIX_VALIDATORS_WARM_WARM_COMMAND_H_
#define SMALLFIX_VALIDATORS_WARM_WARM_COMMAND_H_

#include <optional>
#include <string>
#include <vector>

namespace smallfix {

// A test command that the warm server (warm_server.h) can run in-process: pytest started the
// way the project's interpreter would start it, with arguments that mean the same without a
// shell.
struct WarmCommand {
  // "module": `python -m pytest` (sys.path[0] is the working directory); "script": the
  // `pytest` program on PATH (sys.path[0] is its directory).
  std::string mode;
  std::vector<std::string> args;  // pytest's arguments, unquoted
};

// The warm form of `command`, or nullopt when it must run cold: not a pytest command
// (pytest_command.h), an interpreter other than `python`/`python3` on PATH or `interpreter`
// itself (another Python may have other packages), or arguments that need a shell (variables,
// globs, redirection, pipes, several commands, backslashes). Single and double quotes are
// understood.
std::optional<WarmCommand> WarmCommandOf(const std::string& command,
                                         const std::string& interpreter);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_WARM_WARM_COMMAND_H_
