#ifndef SMALLFIX_ENGINE_CLI_INTERRUPTS_H_
#define SMALLFIX_ENGINE_CLI_INTERRUPTS_H_

#include <atomic>

namespace smallfix::cli {

// Installs SIGINT and SIGTERM handlers that only set the returned flag, so a long run
// unwinds on its own: running process groups are killed, workspaces removed, and the
// command exits with 128 + the signal. A second signal ends the process at once.
// The flag is the one piece of process-wide state: a signal handler can reach nothing else.
const std::atomic<bool>* InstallInterruptHandlers();

// The signal that set the flag (0 if none).
int InterruptSignal();

}  // namespace smallfix::cli

#endif  // SMALLFIX_ENGINE_CLI_INTERRUPTS_H_
