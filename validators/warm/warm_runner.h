#ifndef SMALLFIX_VALIDATORS_WARM_WARM_RUNNER_H_
#define SMALLFIX_VALIDATORS_WARM_WARM_RUNNER_H_

#include <memory>

#include "validators/test_runner.h"
#include "validators/warm/warm_server.h"

namespace smallfix {

// A local or torchrun-style runner whose pytest runs go to `server` (one request per rank,
// each with the rank's environment, as RankRunner sets it) and are scored the same way, from
// the JUnit reports they write. Commands that cannot run warm (warm_command.h) run on `cold`;
// so does every run once the server failed, and a run the server lost is run again cold.
std::unique_ptr<TestRunner> MakeWarmRunner(WarmServer* server, const RunnerOptions& options,
                                           int world, bool rank_env,
                                           std::unique_ptr<TestRunner> cold);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_WARM_WARM_RUNNER_H_
