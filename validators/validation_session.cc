#include "validators/validation_session.h"

#include <chrono>
#include <filesystem>
#include <utility>

#include "engine/base/concat.h"
#include "engine/vcs/run_sweep.h"
#include "validators/process/process_sweep.h"
#include "validators/process/python_env.h"
#include "validators/slurm/slurm_test_runner.h"

namespace smallfix {

absl::StatusOr<std::unique_ptr<ValidationSession>> ValidationSession::Start(
    const std::string& repo, const ValidationPlan& plan, const std::atomic<bool>* cancel,
    std::function<void(const std::string&)> progress) {
  // What runs killed outright left here: worktrees and branches in the repository, their
  // scratch directories. A live run's are left alone, so runs at once never disturb each other.
  const SweepCounts swept = SweepBeforeRun(repo);
  absl::StatusOr<TempDir> scratch = TempDir::Create();
  if (!scratch.ok()) return scratch.status();
  std::unique_ptr<ValidationSession> session(
      new ValidationSession(repo, plan, cancel, std::move(progress), *std::move(scratch)));
  if (std::string note = SweepNote(swept); !note.empty()) session->start_notes_.push_back(note);
  session->StartWarmServer();
  if (session->progress_) session->progress_("reproducing the failure on the unpatched tree");
  ValidationSession* self = session.get();
  session->reproduction_ = std::async(std::launch::async, [self] {
    return Reproduce(self->repo_, self->scratch_.path(), self->plan_, &self->stop_reproduction_);
  });
  return session;
}

ValidationSession::ValidationSession(std::string repo, ValidationPlan plan,
                                     const std::atomic<bool>* cancel,
                                     std::function<void(const std::string&)> progress,
                                     TempDir scratch)
    : repo_(std::move(repo)),
      plan_(std::move(plan)),
      cancel_(cancel),
      progress_(std::move(progress)),
      scratch_(std::move(scratch)) {}

ValidationSession::~ValidationSession() {
  if (reproduction_.valid()) {
    stop_reproduction_ = true;
    reproduction_.wait();
  }
  // A daemon a test started (setsid: out of the process group its time limit kills) still has
  // its working directory in a worktree: it is killed after the warm server stops and before
  // the scratch directory goes.
  warm_.reset();
  KillProcessesIn(scratch_.path());
  SweepSlurmJobs();
}

// The warm server for this repair's test runs (warm_server.h), unless the plan asks for cold
// runs (--cold), runs on Slurm, or the server cannot even be launched (with a note). It is not
// waited for here: its start-up overlaps with candidate generation.
void ValidationSession::StartWarmServer() {
  if (!plan_.warm || plan_.runner.kind == RunnerKind::kSlurm) return;
  const std::string dir = Concat(scratch_.path(), "/warm");
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  absl::StatusOr<std::map<std::string, std::string>> env =
      PythonEnvironment(Concat(dir, "/bin"), plan_.interpreter);
  if (!env.ok()) return;  // the cold runs report the missing interpreter
  WarmServerOptions options;
  options.interpreter = plan_.interpreter;
  options.env = plan_.runner.env;
  options.pass_env = plan_.runner.pass_env;
  for (const auto& [key, value] : *env) options.env[key] = value;
  options.dir = dir;
  absl::StatusOr<std::unique_ptr<WarmServer>> server = WarmServer::Start(options);
  if (!server.ok()) {
    start_notes_.push_back(Concat("the warm server did not start (", server.status().message(),
                                  "); test runs were cold"));
    return;
  }
  warm_ = *std::move(server);
  plan_.runner.warm = warm_.get();
}

absl::StatusOr<TestRun> ValidationSession::Reproduction() {
  while (reproduction_.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
    if (cancel_ != nullptr && cancel_->load()) stop_reproduction_ = true;
  }
  return reproduction_.get();
}

absl::StatusOr<std::vector<std::string>> ValidationSession::TraceOtherTests(
    const std::atomic<bool>* stop) const {
  return smallfix::TraceOtherTests(repo_, scratch_.path(), plan_, stop);
}

ValidationResult ValidationSession::Validate(const std::string& name,
                                             const std::vector<FileChange>& changes,
                                             const std::atomic<bool>* stop) const {
  return ValidateCandidate(repo_, scratch_.path(), name, changes, plan_, stop);
}

std::vector<std::string> ValidationSession::WarmNotes() const {
  return warm_ != nullptr ? warm_->Notes() : std::vector<std::string>{};
}

void ValidationSession::SweepSlurmJobs() const {
  if (plan_.runner.kind != RunnerKind::kSlurm || cancel_ == nullptr || !cancel_->load()) return;
  const std::string& prefix = plan_.runner.slurm.job_name_prefix;
  absl::StatusOr<int> swept = CancelJobsOfRun(prefix);
  if (!progress_) return;
  if (!swept.ok()) {
    progress_(std::string(swept.status().message()));
  } else if (*swept > 0) {
    progress_(
        Concat("cancelled ", std::to_string(*swept), " more Slurm job(s) named ", prefix, "-*"));
  }
}

}  // namespace smallfix
