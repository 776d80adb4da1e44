#include "validators/validator.h"

#include <chrono>
#include <filesystem>
#include <functional>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/source/document.h"
#include "engine/vcs/workspace.h"
#include "validators/process/process.h"
#include "validators/process/python_env.h"

namespace smallfix {
namespace {

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string Tail(const std::string& text, size_t bytes = 4000) {
  return text.size() <= bytes ? text : text.substr(text.size() - bytes);
}

StageStatus StatusOf(bool passed, bool timed_out) {
  return passed ? StageStatus::kPassed : timed_out ? StageStatus::kTimeout : StageStatus::kFailed;
}

StageResult FromTestRun(StageKind kind, const TestRun& run) {
  StageResult stage{kind, StatusOf(run.passed, run.timed_out), run.seconds, run.summary,
                    Tail(run.output)};
  if (run.cancelled) stage.status = StageStatus::kError;
  return stage;
}

// The runner options with the Python environment of this workspace.
absl::StatusOr<RunnerOptions> RunnerFor(const ValidationPlan& plan, const std::string& shim_dir,
                                        const std::atomic<bool>* cancel) {
  absl::StatusOr<std::map<std::string, std::string>> env =
      PythonEnvironment(shim_dir, plan.interpreter);
  if (!env.ok()) return env.status();
  RunnerOptions runner = plan.runner;
  for (const auto& [key, value] : *env) runner.env[key] = value;
  runner.cancel = cancel;
  return runner;
}

// An offline runner's process runs in a network sandbox of its own.
absl::Status Sandbox(const RunnerOptions& runner, ProcessOptions& process) {
  if (!runner.offline) return absl::OkStatus();
  absl::StatusOr<std::shared_ptr<const NetworkSandbox>> sandbox = NetworkSandbox::Create();
  if (!sandbox.ok()) return sandbox.status();
  process.network = *std::move(sandbox);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<TestRun> Reproduce(const std::string& repo_root, const std::string& scratch_dir,
                                  const ValidationPlan& plan, const std::atomic<bool>* cancel) {
  absl::StatusOr<std::unique_ptr<Workspace>> workspace =
      Workspace::Create(repo_root, scratch_dir, "reproduce");
  if (!workspace.ok()) return workspace.status();
  absl::StatusOr<RunnerOptions> runner =
      RunnerFor(plan, Concat(scratch_dir, "/bin-reproduce"), cancel);
  if (!runner.ok()) return runner.status();
  runner->offline = !plan.network.reproduction;
  runner->capture_facts = true;  // what the failing run knew, for the look-ups that read it
  if (!plan.build.empty()) {
    ProcessOptions build;
    build.shell_command = plan.build;
    build.cwd = (*workspace)->path();
    build.env = runner->env;
    build.pass_env = runner->pass_env;
    build.time_limit_seconds = runner->time_limit_seconds;
    build.cancel = cancel;
    if (absl::Status offline = Sandbox(*runner, build); !offline.ok()) return offline;
    absl::StatusOr<ProcessResult> built = RunProcess(build);
    if (!built.ok()) return built.status();
    if (!built->ok()) {
      return absl::FailedPreconditionError(
          Concat("the build command fails on the unpatched tree:\n", Tail(built->output)));
    }
  }
  return RunTestCommand((*workspace)->path(), plan.failing_test, *runner);
}

absl::StatusOr<std::vector<std::string>> TraceOtherTests(const std::string& repo_root,
                                                         const std::string& scratch_dir,
                                                         const ValidationPlan& plan,
                                                         const std::atomic<bool>* cancel) {
  std::vector<std::string> traced;
  if (plan.runner.facts_trace.empty()) return traced;
  absl::StatusOr<std::unique_ptr<Workspace>> workspace =
      Workspace::Create(repo_root, scratch_dir, "trace");
  if (!workspace.ok()) return workspace.status();
  absl::StatusOr<RunnerOptions> runner = RunnerFor(plan, Concat(scratch_dir, "/bin-trace"), cancel);
  if (!runner.ok()) return runner.status();
  runner->offline = !plan.network.reproduction;  // the user's own tests, like the reproduction
  runner->capture_facts = true;
  for (const std::string& command : plan.other_tests) {
    if (command == plan.failing_test) continue;
    if (cancel != nullptr && cancel->load()) break;
    absl::StatusOr<TestRun> run = RunTestCommand((*workspace)->path(), command, *runner);
    if (!run.ok()) return run.status();
    if (!run->facts_json.empty()) traced.push_back(std::move(run->facts_json));
  }
  return traced;
}

namespace {

// The syntax stage: the changed files parse with no more errors than before.
StageResult CheckSyntax(const std::vector<FileChange>& changes) {
  const auto start = std::chrono::steady_clock::now();
  for (const FileChange& change : changes) {
    absl::StatusOr<Document> before = Document::Parse(change.file, change.before);
    absl::StatusOr<Document> after = Document::Parse(change.file, change.after);
    if (!after.ok() || (before.ok() && after->CountSyntaxErrors() > before->CountSyntaxErrors())) {
      return {StageKind::kSyntax, StageStatus::kFailed, Since(start),
              Concat(change.file, " does not parse"), ""};
    }
  }
  return {StageKind::kSyntax, StageStatus::kPassed, Since(start), "", ""};
}

// A stage that runs one process in the workspace: `argv`, or `shell_command` when argv is empty.
StageResult RunProcessStage(StageKind kind, ProcessOptions process, const std::string& cwd,
                            const RunnerOptions& runner) {
  const auto start = std::chrono::steady_clock::now();
  process.cwd = cwd;
  process.env = runner.env;
  process.pass_env = runner.pass_env;
  process.time_limit_seconds = runner.time_limit_seconds;
  process.memory_limit_bytes = runner.memory_limit_bytes;
  process.cancel = runner.cancel;
  const absl::Status offline = Sandbox(runner, process);
  absl::StatusOr<ProcessResult> ran =
      offline.ok() ? RunProcess(process) : absl::StatusOr<ProcessResult>(offline);
  if (!ran.ok())
    return {kind, StageStatus::kError, Since(start), std::string(ran.status().message()), ""};
  const std::string detail = ran->ok()        ? ""
                             : ran->timed_out ? "timed out (killed)"
                                              : absl::StrFormat("exit %d", ran->exit_code);
  return {kind, StatusOf(ran->ok(), ran->timed_out), Since(start), detail, Tail(ran->output)};
}

StageResult RunTestStage(StageKind kind, const std::string& cwd, const std::string& command,
                         const RunnerOptions& runner) {
  absl::StatusOr<TestRun> run = RunTestCommand(cwd, command, runner);
  if (!run.ok()) return {kind, StageStatus::kError, 0, std::string(run.status().message()), ""};
  std::error_code error;
  if (!std::filesystem::is_directory(cwd, error)) {
    // Its outcome (and JUnit report) went with the directory: nothing to judge.
    return {kind, StageStatus::kError, run->seconds, "the test command removed its worktree " + cwd,
            Tail(run->output)};
  }
  return FromTestRun(kind, *run);
}

}  // namespace

ValidationResult ValidateCandidate(const std::string& repo_root, const std::string& scratch_dir,
                                   const std::string& name, const std::vector<FileChange>& changes,
                                   const ValidationPlan& plan, const std::atomic<bool>* cancel) {
  const auto start = std::chrono::steady_clock::now();
  ValidationResult result;
  auto finish = [&](ValidationStatus status) {
    result.status = status;
    result.seconds = Since(start);
    return result;
  };
  auto setup_error = [&](const absl::Status& status) {
    result.stages.push_back(
        {StageKind::kWorkspace, StageStatus::kError, 0, std::string(status.message()), ""});
    return finish(ValidationStatus::kError);
  };

  // Syntax is checked before a workspace exists: a candidate that does not parse costs nothing.
  result.stages.push_back(CheckSyntax(changes));
  if (result.stages.back().status != StageStatus::kPassed)
    return finish(OutcomeOf(result.stages.back().status));

  absl::StatusOr<std::unique_ptr<Workspace>> workspace =
      Workspace::Create(repo_root, scratch_dir, name);
  if (!workspace.ok()) return setup_error(workspace.status());
  for (const FileChange& change : changes) {
    if (absl::Status written = (*workspace)->WriteFile(change.file, change.after); !written.ok()) {
      return setup_error(written);
    }
  }
  absl::StatusOr<RunnerOptions> runner =
      RunnerFor(plan, Concat(scratch_dir, "/bin-", name), cancel);
  if (!runner.ok()) return setup_error(runner.status());
  runner->offline = !plan.network.candidates;
  const std::string cwd = (*workspace)->path();

  // The remaining stages, in order; each runs only when every earlier one passed.
  std::vector<std::function<StageResult()>> stages;
  stages.push_back([&] {
    // compile() each changed file without writing bytecode into the workspace.
    ProcessOptions compile;
    compile.argv = {
        "python", "-c",
        "import sys\nfor f in sys.argv[1:]:\n    compile(open(f, 'rb').read(), f, 'exec')\n"};
    for (const FileChange& change : changes) compile.argv.push_back(change.file);
    return RunProcessStage(StageKind::kCompile, compile, cwd, *runner);
  });
  if (!plan.build.empty()) {
    stages.push_back([&] {
      ProcessOptions build;
      build.shell_command = plan.build;
      return RunProcessStage(StageKind::kBuild, build, cwd, *runner);
    });
  }
  stages.push_back([&] { return RunTestStage(StageKind::kTest, cwd, plan.failing_test, *runner); });
  for (const std::string& command : plan.other_tests) {
    if (command == plan.failing_test) continue;
    stages.push_back(
        [&, command] { return RunTestStage(StageKind::kRegression, cwd, command, *runner); });
  }

  for (const auto& stage : stages) {
    result.stages.push_back(stage());
    if (result.stages.back().status != StageStatus::kPassed)
      return finish(OutcomeOf(result.stages.back().status));
  }
  return finish(ValidationStatus::kPlausible);
}

}  // namespace smallfix
