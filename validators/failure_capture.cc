#include "validators/failure_capture.h"

#include <fstream>
#include <optional>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/read_file.h"
#include "engine/base/status_macros.h"
#include "engine/base/temp_dir.h"
#include "validators/facts/fact_plugin.h"
#include "validators/process/network_sandbox.h"
#include "validators/process/process.h"
#include "validators/process/python_env.h"
#include "validators/pytest_command.h"

namespace smallfix {

namespace {

// The command line of a pytest capture: a JUnit report, the first failure's runtime facts,
// every thread's stack a little before the limit (so a hang says where it waits), and with
// coverage the coverage.py wrapper with one context per test.
std::string CaptureCommand(const std::string& pytest_args, const std::string& temp,
                           const CaptureOptions& options) {
  const int dump_after = std::max(1, static_cast<int>(options.time_limit_seconds * 0.8));
  const std::string extra =
      Concat(absl::StrFormat(" -p no:cacheprovider --junitxml=%s -o faulthandler_timeout=%d",
                             ShellQuote(temp + "/junit.xml"), dump_after),
             FactPluginArguments({temp + "/facts.json", options.facts_trace}));
  if (!options.coverage) return Concat("python -m pytest ", pytest_args, extra);
  const std::string rcfile = temp + "/coveragerc";
  std::ofstream rc(rcfile);
  rc << "[run]\ndynamic_context = test_function\nrelative_files = True\ndata_file = " << temp
     << "/coverage.data\n";
  return Concat("python -m coverage run --rcfile=", ShellQuote(rcfile), " -m pytest ", pytest_args,
                extra);
}

// The runtime facts the plugin wrote, or a note saying why a failed run has none.
void TakeFacts(const std::string& path, FailureCapture& run) {
  run.facts_json = ReadFile(path).value_or("");
  if (!run.facts_json.empty() || run.exit_code == 0) return;
  run.notes.push_back(run.timed_out
                          ? "runtime facts: none (the run was killed before a test failed)"
                          : "runtime facts: none (no test failed in pytest; the command failed "
                            "outside it, or pytest stopped first)");
}

}  // namespace

absl::StatusOr<FailureCapture> CaptureFailure(const std::string& dir, const std::string& command,
                                              const CaptureOptions& options) {
  SMALLFIX_ASSIGN_OR_RETURN(const TempDir temp_dir, TempDir::Create("smallfix-localize"));
  const std::string& temp = temp_dir.path();
  SMALLFIX_ASSIGN_OR_RETURN(auto python_env, PythonEnvironment(temp + "/bin", options.interpreter));
  std::map<std::string, std::string> env = options.env;
  for (auto& [key, value] : python_env) env[key] = std::move(value);
  env["PYTHONFAULTHANDLER"] = "1";

  FailureCapture run;
  std::string shell_command = command;
  const std::optional<std::string> pytest_args = PytestArguments(command);
  if (pytest_args) {
    shell_command = CaptureCommand(*pytest_args, temp, options);
    AddFactPluginPath(env);
  } else if (options.coverage) {
    run.notes.push_back("coverage ranking needs a pytest command; ranked by the output alone");
  }

  ProcessOptions process;
  process.shell_command = shell_command;
  process.cwd = dir;
  process.time_limit_seconds = options.time_limit_seconds;
  process.cancel = options.cancel;
  process.env = env;
  process.pass_env = options.pass_env;
  if (options.offline) {
    SMALLFIX_ASSIGN_OR_RETURN(process.network, NetworkSandbox::Create());
  }
  SMALLFIX_ASSIGN_OR_RETURN(ProcessResult result, RunProcess(process));
  run.output = std::move(result.output);
  run.exit_code = result.exit_code;
  run.timed_out = result.timed_out;
  run.cancelled = result.cancelled;
  if (run.timed_out) {
    run.notes.push_back(absl::StrFormat("the test command ran past %g s and was killed (a hang?)",
                                        options.time_limit_seconds));
  }
  if (run.cancelled) {
    run.notes.push_back("interrupted");
    return run;
  }
  if (!pytest_args) return run;
  if (options.coverage && run.exit_code != 0 &&
      run.output.find("No module named coverage") != std::string::npos) {
    return absl::FailedPreconditionError(
        Concat("coverage ranking needs coverage.py in the tests' interpreter (",
               options.interpreter.empty() ? "python3 on PATH" : options.interpreter,
               "), which has no module `coverage`: install it there (pip install coverage)"));
  }
  run.junit_xml = ReadFile(temp + "/junit.xml").value_or("");
  TakeFacts(temp + "/facts.json", run);
  if (!options.coverage) return run;

  ProcessOptions report;
  report.shell_command =
      Concat("python -m coverage json --rcfile=", ShellQuote(temp + "/coveragerc"),
             " --show-contexts -o ", ShellQuote(temp + "/coverage.json"));
  report.cwd = dir;
  report.time_limit_seconds = 300;
  report.cancel = options.cancel;
  report.env = env;
  absl::StatusOr<ProcessResult> reported = RunProcess(report);
  run.coverage_json = ReadFile(temp + "/coverage.json").value_or("");
  if (!reported.ok() || !reported->ok() || run.coverage_json.empty()) {
    run.notes.push_back(
        Concat("coverage report failed: ",
               reported.ok() ? reported->output : std::string(reported.status().message())));
    run.coverage_json.clear();
  }
  return run;
}

}  // namespace smallfix
