#include "validators/warm/warm_runner.h"

#include <chrono>
#include <vector>

#include "absl/strings/str_format.h"
#include "engine/base/temp_dir.h"
#include "validators/facts/fact_plugin.h"
#include "validators/ranks/rank_launch.h"
#include "validators/ranks/rank_outcome.h"
#include "validators/warm/warm_command.h"

namespace smallfix {
namespace {

class WarmRunner : public TestRunner {
 public:
  WarmRunner(WarmServer* server, RunnerOptions options, int world, bool rank_env,
             std::unique_ptr<TestRunner> cold)
      : server_(server),
        options_(std::move(options)),
        world_(world),
        rank_env_(rank_env),
        cold_(std::move(cold)) {}

  absl::StatusOr<TestRun> Run(const std::string& dir, const std::string& command) const override {
    const std::optional<WarmCommand> warm = WarmCommandOf(command, server_->interpreter());
    if (!warm || server_->failed()) return cold_->Run(dir, command);
    absl::StatusOr<TempDir> scratch = TempDir::Create("smallfix-run");
    if (!scratch.ok()) return scratch.status();
    absl::StatusOr<std::vector<ProcessOptions>> made =
        RankProcesses(options_, dir, world_, rank_env_);
    if (!made.ok()) return made.status();
    std::vector<ProcessOptions>& processes = *made;
    auto start_rank = [&](const ProcessOptions& process) {
      const int rank = static_cast<int>(&process - processes.data());
      WarmRequest request{*warm, process, absl::StrFormat("%s/rank%d.out", scratch->path(), rank)};
      request.command.args.push_back("--junitxml=" + RankJUnitPath(scratch->path(), rank));
      if (options_.capture_facts) {
        for (std::string& arg :
             FactPluginArgv({RankFactsPath(scratch->path(), rank), options_.facts_trace}))
          request.command.args.push_back(std::move(arg));
        AddFactPluginPath(request.process.env);
      }
      return server_->Run(request);
    };

    const auto start = std::chrono::steady_clock::now();
    RankRunFacts facts;
    const std::vector<absl::StatusOr<ProcessResult>> results =
        LaunchWithGrace(processes, start_rank, options_.cancel, &facts.cancelled);
    facts.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::vector<ProcessResult> ranks;
    for (const absl::StatusOr<ProcessResult>& result : results) {
      if (!result.ok() && absl::IsCancelled(result.status())) {
        ProcessResult cancelled;  // stopped while the server started: nothing ran
        cancelled.cancelled = true;
        ranks.push_back(cancelled);
        continue;
      }
      // The server failed (it says why in its notes): this run, and every later one, is cold.
      if (!result.ok()) return cold_->Run(dir, command);
      ranks.push_back(*result);
    }
    facts.pytest = true;
    facts.junit_dir = scratch->path();
    facts.time_limit_seconds = options_.time_limit_seconds;
    TestRun run = ScoreRanks(ranks, facts);
    if (options_.capture_facts) run.facts_json = FirstRankFacts(scratch->path(), world_);
    return run;
  }

 private:
  WarmServer* server_;
  RunnerOptions options_;
  int world_;
  bool rank_env_;
  std::unique_ptr<TestRunner> cold_;
};

}  // namespace

std::unique_ptr<TestRunner> MakeWarmRunner(WarmServer* server, const RunnerOptions& options,
                                           int world, bool rank_env,
                                           std::unique_ptr<TestRunner> cold) {
  return std::make_unique<WarmRunner>(server, options, world, rank_env, std::move(cold));
}

}  // namespace smallfix
