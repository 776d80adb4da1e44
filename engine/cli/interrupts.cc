#include "engine/cli/interrupts.h"

#include <signal.h>
#include <unistd.h>

namespace smallfix::cli {
namespace {

std::atomic<bool> interrupted{false};
volatile sig_atomic_t received = 0;

void OnSignal(int signal) {
  if (interrupted.load()) _exit(128 + signal);  // asked twice: stop now
  received = signal;
  interrupted.store(true);
}

}  // namespace

const std::atomic<bool>* InstallInterruptHandlers() {
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  return &interrupted;
}

int InterruptSignal() { return received; }

}  // namespace smallfix::cli
