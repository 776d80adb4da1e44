#include "validators/validator.h"

#include <chrono>
#include <filesystem>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/source/document.h"
#include "engine/vcs/workspace.h"
#include "validators/process.h"
#include "validators/python_env.h"

namespace smallfix {
namespace {

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string Tail(const std::string& text, size_t bytes = 4000) {
  return text.size() <= bytes ? text : text.substr(text.size() - bytes);
}

StageResult FromTestRun(const std::string& name, const TestRun& run) {
  StageResult stage{name, run.passed ? "passed" : run.timed_out ? "timeout" : "failed", run.seconds,
                    run.summary, Tail(run.output)};
  if (run.cancelled) stage.status = "error";
  return stage;
}

// The runner options with the Python environment of this workspace.
absl::StatusOr<RunnerOptions> RunnerFor(const ValidationPlan& plan, const std::string& shim_dir,
                                        const std::atomic<bool>* cancel) {
  absl::StatusOr<std::map<std::string, std::string>> env = PythonEnvironment(shim_dir, plan.interpreter);
  if (!env.ok()) return env.status();
  RunnerOptions runner = plan.runner;
  for (const auto& [key, value] : *env) runner.env[key] = value;
  runner.cancel = cancel;
  return runner;
}

}  // namespace

absl::StatusOr<TestRun> Reproduce(const std::string& repo_root, const std::string& scratch_dir,
                                  const ValidationPlan& plan, const std::atomic<bool>* cancel) {
  absl::StatusOr<std::unique_ptr<Workspace>> workspace = Workspace::Create(repo_root, scratch_dir, "reproduce");
  if (!workspace.ok()) return workspace.status();
  absl::StatusOr<RunnerOptions> runner = RunnerFor(plan, Concat(scratch_dir, "/bin-reproduce"), cancel);
  if (!runner.ok()) return runner.status();
  if (!plan.build.empty()) {
    ProcessOptions build;
    build.shell_command = plan.build;
    build.cwd = (*workspace)->path();
    build.env = runner->env;
    build.time_limit_seconds = runner->time_limit_seconds;
    build.cancel = cancel;
    absl::StatusOr<ProcessResult> built = RunProcess(build);
    if (!built.ok()) return built.status();
    if (!built->ok()) {
      return absl::FailedPreconditionError(Concat("the build command fails on the unpatched tree:\n", Tail(built->output)));
    }
  }
  return RunTestCommand((*workspace)->path(), plan.failing_test, *runner);
}

ValidationResult ValidateCandidate(const std::string& repo_root, const std::string& scratch_dir,
                                   const std::string& name, const std::vector<FileChange>& changes,
                                   const ValidationPlan& plan, const std::atomic<bool>* cancel) {
  const auto start = std::chrono::steady_clock::now();
  ValidationResult result;
  auto finish = [&](std::string status) {
    result.status = std::move(status);
    result.seconds = Since(start);
    return result;
  };

  // syntax: the changed files parse with no more errors than before.
  auto stage_start = std::chrono::steady_clock::now();
  for (const FileChange& change : changes) {
    absl::StatusOr<Document> before = Document::Parse(change.file, change.before);
    absl::StatusOr<Document> after = Document::Parse(change.file, change.after);
    if (!after.ok() || (before.ok() && after->CountSyntaxErrors() > before->CountSyntaxErrors())) {
      result.stages.push_back({"syntax", "failed", Since(stage_start), Concat(change.file, " does not parse"), ""});
      return finish("failed");
    }
  }
  result.stages.push_back({"syntax", "passed", Since(stage_start), "", ""});

  absl::StatusOr<std::unique_ptr<Workspace>> workspace = Workspace::Create(repo_root, scratch_dir, name);
  if (!workspace.ok()) {
    result.stages.push_back({"workspace", "error", 0, std::string(workspace.status().message()), ""});
    return finish("error");
  }
  for (const FileChange& change : changes) {
    if (absl::Status written = (*workspace)->WriteFile(change.file, change.after); !written.ok()) {
      result.stages.push_back({"workspace", "error", 0, std::string(written.message()), ""});
      return finish("error");
    }
  }
  absl::StatusOr<RunnerOptions> runner = RunnerFor(plan, Concat(scratch_dir, "/bin-", name), cancel);
  if (!runner.ok()) {
    result.stages.push_back({"workspace", "error", 0, std::string(runner.status().message()), ""});
    return finish("error");
  }
  auto run_stage = [&](const std::string& stage, const std::string& command, bool shell) -> bool {
    const auto t0 = std::chrono::steady_clock::now();
    ProcessOptions process;
    if (shell) process.shell_command = command;
    process.cwd = (*workspace)->path();
    process.env = runner->env;
    process.time_limit_seconds = runner->time_limit_seconds;
    process.memory_limit_bytes = runner->memory_limit_bytes;
    process.cancel = cancel;
    if (!shell) {
      // compile() each changed file without writing bytecode into the workspace.
      process.argv = {"python", "-c",
                      "import sys\nfor f in sys.argv[1:]:\n    compile(open(f, 'rb').read(), f, 'exec')\n"};
      for (const FileChange& change : changes) process.argv.push_back(change.file);
    }
    absl::StatusOr<ProcessResult> ran = RunProcess(process);
    if (!ran.ok()) {
      result.stages.push_back({stage, "error", Since(t0), std::string(ran.status().message()), ""});
      return false;
    }
    const std::string status = ran->ok() ? "passed" : ran->timed_out ? "timeout" : "failed";
    const std::string detail = ran->ok()        ? ""
                               : ran->timed_out ? "timed out (killed)"
                                                : absl::StrFormat("exit %d", ran->exit_code);
    result.stages.push_back({stage, status, Since(t0), detail, Tail(ran->output)});
    return ran->ok();
  };
  if (!run_stage("compile", "", false)) return finish(result.stages.back().status);
  if (!plan.build.empty() && !run_stage("build", plan.build, true)) return finish(result.stages.back().status);

  absl::StatusOr<TestRun> failing = RunTestCommand((*workspace)->path(), plan.failing_test, *runner);
  if (!failing.ok()) {
    result.stages.push_back({"test", "error", 0, std::string(failing.status().message()), ""});
    return finish("error");
  }
  result.stages.push_back(FromTestRun("test", *failing));
  if (!failing->passed) return finish(result.stages.back().status);
  for (const std::string& command : plan.other_tests) {
    if (command == plan.failing_test) continue;
    absl::StatusOr<TestRun> other = RunTestCommand((*workspace)->path(), command, *runner);
    if (!other.ok()) {
      result.stages.push_back({"regression", "error", 0, std::string(other.status().message()), ""});
      return finish("error");
    }
    result.stages.push_back(FromTestRun("regression", *other));
    if (!other->passed) return finish(result.stages.back().status);
  }
  return finish("plausible");
}

}  // namespace smallfix
