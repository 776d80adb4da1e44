#ifndef SMALLFIX_VALIDATORS_VALIDATION_SESSION_H_
#define SMALLFIX_VALIDATORS_VALIDATION_SESSION_H_

#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/base/temp_dir.h"
#include "engine/source/file_change.h"
#include "validators/test_runner.h"
#include "validators/validator.h"
#include "validators/warm/warm_server.h"

namespace smallfix {

// One repair's validation: the scratch directory its workspaces live in, the warm server, the
// reproduction of the failure on the unpatched tree, and, for Slurm, the sweep of the run's
// jobs. Started before the candidates are generated, so that the server's start-up and the
// reproduction overlap with generation. The destructor stops the reproduction and waits for
// it, ends the server, kills what a test left running in the scratch directory (a daemon
// out of its process group), removes the directory and, after Ctrl-C or SIGTERM, cancels
// any Slurm job of the run that is still known to Slurm (one whose sbatch returned while the
// run was already unwinding; each run cancels its own jobs).
class ValidationSession {
 public:
  // Sweeps what runs killed outright left (run_sweep.h), makes the scratch directory, starts the
  // warm server (unless the plan is cold or runs on Slurm) and the reproduction. `progress`
  // (may be empty) hears what it starts and what the sweep cancelled. Errors: the scratch
  // directory cannot be made.
  static absl::StatusOr<std::unique_ptr<ValidationSession>> Start(
      const std::string& repo, const ValidationPlan& plan, const std::atomic<bool>* cancel,
      std::function<void(const std::string&)> progress);
  ~ValidationSession();
  ValidationSession(const ValidationSession&) = delete;
  ValidationSession& operator=(const ValidationSession&) = delete;

  // What starting said (what the sweep removed, the warm server did not start), for the report.
  const std::vector<std::string>& start_notes() const { return start_notes_; }
  // The plan the candidates are validated with: the request's, with the warm server set.
  const ValidationPlan& plan() const { return plan_; }
  // Where the workspaces live; removed with the session.
  const std::string& scratch_dir() const { return scratch_.path(); }

  // Waits for the reproduction; Ctrl-C stops it (the run comes back cancelled). Once only.
  absl::StatusOr<TestRun> Reproduction();
  // Stops the reproduction without waiting: there is nothing to validate.
  void StopReproduction() { stop_reproduction_ = true; }

  // TraceOtherTests on the unpatched tree, in the session's scratch directory.
  absl::StatusOr<std::vector<std::string>> TraceOtherTests(const std::atomic<bool>* stop) const;

  // ValidateCandidate in a workspace named `name` under the scratch directory.
  ValidationResult Validate(const std::string& name, const std::vector<FileChange>& changes,
                            const std::atomic<bool>* stop) const;

  // Whether test runs went to the warm server to the end, and what it noted (a failure, the
  // fallback to cold runs).
  bool warm() const { return warm_ != nullptr && !warm_->failed(); }
  std::vector<std::string> WarmNotes() const;

 private:
  ValidationSession(std::string repo, ValidationPlan plan, const std::atomic<bool>* cancel,
                    std::function<void(const std::string&)> progress, TempDir scratch);
  void StartWarmServer();
  void SweepSlurmJobs() const;

  std::string repo_;
  ValidationPlan plan_;
  const std::atomic<bool>* cancel_;
  std::function<void(const std::string&)> progress_;
  // Declared in this order so that the reproduction ends before the server, and the server
  // before its scratch directory.
  TempDir scratch_;
  std::unique_ptr<WarmServer> warm_;
  std::vector<std::string> start_notes_;
  std::atomic<bool> stop_reproduction_{false};
  std::future<absl::StatusOr<TestRun>> reproduction_;
};

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_VALIDATION_SESSION_H_
