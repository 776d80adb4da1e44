#ifndef SMALLFIX_VALIDATORS_RANKS_RANK_LAUNCH_H_
#define SMALLFIX_VALIDATORS_RANKS_RANK_LAUNCH_H_

#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "validators/process/process.h"
#include "validators/test_runner.h"

namespace smallfix {

// torchrun's contract for rank `rank` of `world` on this host (MASTER_PORT `port`), over
// `options.env`; with `options.gpus`, rank r sees the r-th listed device only.
std::map<std::string, std::string> RankEnvironment(const RunnerOptions& options, int rank,
                                                   int world, int port);

// One process per rank, run in `dir` under `options`' limits and environment policy (pass_env;
// with `options.offline`, one network sandbox for all of them); with `rank_env`, each with
// RankEnvironment on a free MASTER_PORT, else with `options.env`. The caller fills in what
// runs (shell_command, or the warm server's request).
absl::StatusOr<std::vector<ProcessOptions>> RankProcesses(const RunnerOptions& options,
                                                          const std::string& dir, int world,
                                                          bool rank_env);

// How one rank's process runs: RunProcess for a cold run, the warm server for a warm one.
// It must honour `process.cancel`.
using RankStarter = std::function<absl::StatusOr<ProcessResult>(const ProcessOptions& process)>;

// Runs every process in its own thread with `start`, and watches: when `cancel` becomes true
// all are stopped (and *cancelled is set); when one rank fails, the others get a grace period
// (a rank waiting in a collective for a dead peer would otherwise wait for its full limit)
// before they are stopped. Results in rank order.
std::vector<absl::StatusOr<ProcessResult>> LaunchWithGrace(std::vector<ProcessOptions>& processes,
                                                           const RankStarter& start,
                                                           const std::atomic<bool>* cancel,
                                                           bool* cancelled);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_RANKS_RANK_LAUNCH_H_
