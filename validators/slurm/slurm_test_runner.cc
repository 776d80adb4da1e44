#include "validators/slurm/slurm_test_runner.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/read_file.h"
#include "validators/process/poll_backoff.h"
#include "validators/pytest_command.h"
#include "validators/ranks/rank_outcome.h"
#include "validators/slurm/slurm_commands.h"
#include "validators/slurm/slurm_job_script.h"

namespace smallfix {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// How often Run looks at the cancel flag between queries.
constexpr auto kTick = std::chrono::milliseconds(50);
// Per-rank output kept, like the local runner's output limit.
constexpr size_t kOutputTailBytes = size_t{1} << 20;
// After scancel: how long to wait for the job to leave the queue (its processes get SIGTERM,
// then SIGKILL after the cluster's KillWait).
constexpr double kEndWaitSeconds = 60;
// Slurm checks time limits about every 30 s and then gives KillWait; if a job runs this long
// past its limit, smallfix stops waiting for Slurm and cancels it itself.
constexpr double kTimeLimitMarginSeconds = 120;
// Failed state queries in a row (a controller restarting) before the run is given up.
constexpr int kQueryFailuresTolerated = 5;

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string TailOf(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return "";
  return text->size() <= kOutputTailBytes ? *text : text->substr(text->size() - kOutputTailBytes);
}

// The last non-empty line of `text`.
std::string LastLine(const std::string& text) {
  size_t end = text.find_last_not_of(" \n\r\t");
  if (end == std::string::npos) return "";
  const size_t begin = text.rfind('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1,
                     end + 1 - (begin == std::string::npos ? 0 : begin + 1));
}

// The job's run directory: made fresh under `base`, removed with everything in it on the
// way out of Run.
class RunDir {
 public:
  static absl::StatusOr<RunDir> Create(const std::string& base, const std::string& name) {
    std::error_code error;
    fs::create_directories(base, error);
    std::string pattern = Concat(base, "/", name, "-XXXXXX");
    if (error || mkdtemp(pattern.data()) == nullptr) {
      return absl::FailedPreconditionError(
          Concat("slurm: cannot create a run directory under ", base));
    }
    return RunDir(std::move(pattern), base);
  }
  RunDir(RunDir&& other) noexcept : path_(std::move(other.path_)), base_(std::move(other.base_)) {
    other.path_.clear();
  }
  RunDir(const RunDir&) = delete;
  RunDir& operator=(const RunDir&) = delete;
  RunDir& operator=(RunDir&&) = delete;
  ~RunDir() {
    if (path_.empty()) return;
    std::error_code ignored;
    fs::remove_all(path_, ignored);
    fs::remove(base_, ignored);  // only when empty: other jobs may share it
  }
  const std::string& path() const { return path_; }

 private:
  RunDir(std::string path, std::string base) : path_(std::move(path)), base_(std::move(base)) {}
  std::string path_;
  std::string base_;
};

// Cancels the job on every way out of Run, unless it is known to have ended.
class JobGuard {
 public:
  explicit JobGuard(std::string id) : id_(std::move(id)) {}
  ~JobGuard() {
    if (!ended_) (void)CancelJob(id_);
  }
  void set_ended() { ended_ = true; }

 private:
  std::string id_;
  bool ended_ = false;
};

absl::Status WriteScript(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out || chmod(path.c_str(), 0755) != 0)
    return absl::FailedPreconditionError(Concat("slurm: cannot write ", path));
  return absl::OkStatus();
}

bool HasEnded(JobPhase phase) { return phase != JobPhase::kWaiting && phase != JobPhase::kRunning; }

// After scancel: waits (bounded) until the job has left the queue, so that a cancelled run
// leaves nothing in squeue behind it.
void WaitUntilGone(const std::string& id) {
  const Clock::time_point start = Clock::now();
  PollBackoff backoff(0.2, 2);
  while (Since(start) < kEndWaitSeconds) {
    if (backoff.Ready()) {
      absl::StatusOr<SlurmJobInfo> job = QueryJob(id);
      if (!job.ok() || HasEnded(ClassifyJob(*job).phase)) return;
    }
    std::this_thread::sleep_for(kTick);
  }
}

// Whether every rank has written its exit status: the job is about to end, worth asking
// about now rather than at the next backed-off query.
bool AllRanksExited(const std::string& run_dir, int world) {
  std::error_code error;
  for (int rank = 0; rank < world; ++rank) {
    if (!fs::exists(RankExitPath(run_dir, rank), error)) return false;
  }
  return true;
}

// Whether rank.sh ran on any task (each rank's output file is made as its command starts).
bool AnyRankStarted(const std::string& run_dir, int world) {
  std::error_code error;
  for (int rank = 0; rank < world; ++rank) {
    if (fs::exists(RankOutputPath(run_dir, rank), error)) return true;
  }
  return false;
}

// Each rank's result, from the files rank.sh wrote: a rank with no exit status was killed
// (by srun after a peer failed, or with the job at its time limit).
std::vector<ProcessResult> ReadRanks(const std::string& run_dir, int world, bool timed_out) {
  std::vector<ProcessResult> ranks(world);
  for (int rank = 0; rank < world; ++rank) {
    ProcessResult& result = ranks[rank];
    result.output = TailOf(RankOutputPath(run_dir, rank));
    absl::StatusOr<std::string> status = ReadFile(RankExitPath(run_dir, rank));
    int code = 0;
    std::string text = status.ok() ? *status : "";
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    if (status.ok() && absl::SimpleAtoi(text, &code)) {
      result.exit_code = code;
    } else {
      result.term_signal = SIGKILL;
      result.timed_out = timed_out;
    }
  }
  return ranks;
}

// The batch job for one test command: named after the run's prefix and the worktree, one task
// per rank, the time limit in whole minutes.
SlurmJobSpec MakeJobSpec(const RunnerOptions& options, const std::string& dir,
                         const std::string& command) {
  SlurmJobSpec spec;
  spec.name = Concat(options.slurm.job_name_prefix, "-", fs::path(dir).filename().string());
  spec.workdir = dir;
  spec.command = command;
  spec.pytest = IsPytest(command);
  spec.world_size = std::max(1, options.world_size);
  spec.time_limit_minutes = TimeLimitMinutes(options.time_limit_seconds);
  spec.memory_limit_bytes = options.memory_limit_bytes;
  spec.env = options.env;
  spec.slurm = options.slurm;
  return spec;
}

// How watching a job ended: Slurm's last word on it, and whether smallfix ended it itself
// (cancelled on request, or past its time limit when Slurm did not enforce it). A job ended
// here has left the queue.
struct JobWatch {
  SlurmJobInfo info;
  JobVerdict verdict;
  bool cancelled = false;
  bool own_timeout = false;
};

// Watches job `id` (`job` in messages) until it ends, `cancel` is set, or it overstays its
// time limit. Queries back off while the job runs and come soon once every rank has exited;
// an error when the job stays pending too long or its state cannot be read several times in
// a row.
absl::StatusOr<JobWatch> WatchJob(const std::string& id, const std::string& job,
                                  const SlurmJobSpec& spec, const std::atomic<bool>* cancel,
                                  Clock::time_point start) {
  JobWatch watch;
  PollBackoff backoff;
  std::optional<Clock::time_point> running_since;
  int query_failures = 0;
  bool ranks_exited = false;
  for (;;) {
    if (cancel != nullptr && cancel->load()) {
      (void)CancelJob(id);
      WaitUntilGone(id);
      watch.cancelled = true;
      return watch;
    }
    if (!ranks_exited && AllRanksExited(spec.run_dir, spec.world_size)) {
      ranks_exited = true;
      backoff = PollBackoff(0.1, 1);  // the job ends in a moment: look again soon
    }
    if (backoff.Ready()) {
      absl::StatusOr<SlurmJobInfo> queried = QueryJob(id);
      if (!queried.ok()) {
        if (++query_failures >= kQueryFailuresTolerated) {
          return absl::UnavailableError(
              Concat(job, ": cannot read its state: ", queried.status().message()));
        }
      } else {
        query_failures = 0;
        watch.info = *queried;
        watch.verdict = ClassifyJob(watch.info);
        if (watch.verdict.phase == JobPhase::kWaiting &&
            Since(start) > spec.slurm.start_timeout_seconds) {
          return absl::UnavailableError(
              absl::StrFormat("%s did not start within %.0f s (pending: %s)", job,
                              spec.slurm.start_timeout_seconds, watch.info.reason));
        }
        if (watch.verdict.phase == JobPhase::kRunning) {
          if (!running_since) running_since = Clock::now();
          if (Since(*running_since) > spec.time_limit_minutes * 60 + kTimeLimitMarginSeconds) {
            // Slurm did not enforce the limit (a cluster with OverTimeLimit, or a stuck
            // controller): smallfix's own limit, like every process it runs.
            (void)CancelJob(id);
            WaitUntilGone(id);
            watch.own_timeout = true;
            return watch;
          }
        }
        if (HasEnded(watch.verdict.phase)) return watch;
      }
    }
    std::this_thread::sleep_for(kTick);
  }
}

// The test run of a job that ended (not broken, not cancelled on request): scored from its
// ranks' files like a local run, with the batch script's own output after theirs. An error
// when someone else cancelled it or no rank started: the cluster's trouble, not the test's.
absl::StatusOr<TestRun> ScoreJob(const SlurmJobSpec& spec, const std::string& job,
                                 const JobWatch& watch, const std::string& job_output,
                                 Clock::time_point start) {
  if (watch.verdict.phase == JobPhase::kCancelled && !watch.own_timeout) {
    return absl::UnavailableError(
        Concat(job, " was cancelled outside smallfix (scancel, or an administrator)"));
  }
  const bool timed_out = watch.own_timeout || watch.verdict.phase == JobPhase::kTimedOut;
  if (!timed_out && !AnyRankStarted(spec.run_dir, spec.world_size)) {
    // The batch script ended without starting a rank (srun could not launch the step, or
    // the script could not run): the cluster's trouble, not the candidate's.
    const std::string detail = LastLine(job_output);
    return absl::UnavailableError(Concat(job, " ended ", watch.info.state,
                                         " before any rank started",
                                         detail.empty() ? "" : Concat(": ", detail)));
  }
  RankRunFacts facts;
  facts.pytest = spec.pytest;
  facts.junit_dir = spec.run_dir;
  facts.seconds = Since(start);
  facts.time_limit_seconds = spec.time_limit_minutes * 60.0;
  std::vector<ProcessResult> ranks = ReadRanks(spec.run_dir, spec.world_size, timed_out);
  if (timed_out) {
    // The ranks that had written their exit status did finish; the job as a whole did not.
    for (ProcessResult& rank : ranks) rank.timed_out = true;
  }
  TestRun out = ScoreRanks(ranks, facts);
  if (!job_output.empty())
    out.output += Concat(out.output.empty() ? "" : "\n", "[slurm] ", job_output);
  if (timed_out) {
    out.summary = watch.own_timeout
                      ? absl::StrFormat("timed out: %s ran %d min past its time limit (cancelled)",
                                        job, static_cast<int>(kTimeLimitMarginSeconds / 60))
                      : absl::StrFormat("timed out: %s killed by Slurm's time limit (%d min, %s)",
                                        job, spec.time_limit_minutes, watch.info.state);
  } else {
    out.summary += Concat(" (", job, ")");
  }
  return out;
}

}  // namespace

absl::StatusOr<TestRun> SlurmTestRunner::Run(const std::string& dir,
                                             const std::string& command) const {
  if (!SlurmAvailable()) {
    return absl::FailedPreconditionError(
        "--runner slurm: sbatch is not on PATH; install Slurm's client tools, or start a local "
        "cluster with "
        "scripts/slurm-local.sh");
  }
  SlurmJobSpec spec = MakeJobSpec(options_, dir, command);
  if (absl::Status checked = CheckJobSpec(spec); !checked.ok()) return checked;

  const SlurmOptions& slurm = options_.slurm;
  absl::StatusOr<RunDir> run_dir =
      RunDir::Create(slurm.workdir.empty() ? dir + "/.smallfix-slurm" : slurm.workdir, spec.name);
  if (!run_dir.ok()) return run_dir.status();
  spec.run_dir = run_dir->path();
  if (absl::Status s = WriteScript(JobScriptPath(spec.run_dir), JobScript(spec)); !s.ok()) return s;
  if (absl::Status s = WriteScript(RankScriptPath(spec.run_dir), RankScript(spec)); !s.ok())
    return s;

  const Clock::time_point start = Clock::now();
  if (options_.cancel != nullptr && options_.cancel->load()) {
    TestRun out;
    out.cancelled = true;
    out.summary = "cancelled (before its job was submitted)";
    return out;
  }
  // Not cancellable itself: sbatch killed after submitting would leave a job nobody knows of.
  absl::StatusOr<std::string> id = SubmitJob(SbatchArguments(spec), dir, options_.pass_env);
  if (!id.ok()) return id.status();
  JobGuard guard(*id);
  const std::string job = Concat("slurm job ", *id, " (", spec.name, ")");

  absl::StatusOr<JobWatch> watch = WatchJob(*id, job, spec, options_.cancel, start);
  if (!watch.ok()) return watch.status();
  if (watch->cancelled) {
    guard.set_ended();
    TestRun out;
    out.cancelled = true;
    out.seconds = Since(start);
    out.summary = Concat("cancelled (", job, " scancel'led)");
    return out;
  }
  const std::string job_output = TailOf(JobOutputPath(spec.run_dir));
  if (watch->verdict.phase == JobPhase::kBroken) {
    const std::string detail = LastLine(job_output);
    return absl::UnavailableError(
        Concat(job, " ", watch->verdict.why, detail.empty() ? "" : Concat(": ", detail)));
  }
  guard.set_ended();
  return ScoreJob(spec, job, *watch, job_output, start);
}

absl::StatusOr<int> CancelJobsOfRun(const std::string& prefix) {
  absl::StatusOr<std::vector<std::string>> ids = JobsNamed(prefix + "-");
  if (!ids.ok()) return ids.status();
  for (const std::string& id : *ids) {
    if (absl::Status cancelled = CancelJob(id); !cancelled.ok()) return cancelled;
  }
  for (const std::string& id : *ids) WaitUntilGone(id);
  return static_cast<int>(ids->size());
}

}  // namespace smallfix
