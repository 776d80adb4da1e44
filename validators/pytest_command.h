#ifndef SMALLFIX_VALIDATORS_PYTEST_COMMAND_H_
#define SMALLFIX_VALIDATORS_PYTEST_COMMAND_H_

#include <optional>
#include <string>

namespace smallfix {

// The arguments after "pytest" when `command` runs pytest, else nullopt. Recognises
// "pytest ARGS", "py.test ARGS", "python[3[.x]] -m pytest ARGS" and "/path/to/python -m
// pytest ARGS", with no list, pipe or redirection outside quotes (flags appended to
// `pytest x; rm y` would go to rm; such a command is judged by its exit status). The one
// detector every runner uses: a pytest command is asked for a JUnit report, and its outcome
// is read from that report.
std::optional<std::string> PytestArguments(const std::string& command);

inline bool IsPytest(const std::string& command) { return PytestArguments(command).has_value(); }

// `text` quoted for /bin/sh.
std::string ShellQuote(const std::string& text);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_PYTEST_COMMAND_H_
