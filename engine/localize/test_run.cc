#include "engine/localize/test_run.h"

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/read_file.h"
#include "engine/localize/path_mapper.h"
#include "validators/junit_reader.h"
#include "validators/process.h"

namespace smallfix {
namespace {

namespace fs = std::filesystem;

std::string ShellQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += "'\\''";
    else out.push_back(c);
  }
  return out + "'";
}

// The arguments after "pytest" when `command` runs pytest, else nullopt. Recognises
// "pytest ARGS", "py.test ARGS", "python[3[.x]] -m pytest ARGS" and "/path/to/python -m pytest".
std::optional<std::string> PytestArguments(const std::string& command) {
  std::string_view text = command;
  while (!text.empty() && text[0] == ' ') text.remove_prefix(1);
  auto word = [&](std::string_view* rest) {
    const size_t end = rest->find(' ');
    std::string_view first = rest->substr(0, end);
    rest->remove_prefix(end == std::string_view::npos ? rest->size() : end);
    while (!rest->empty() && (*rest)[0] == ' ') rest->remove_prefix(1);
    return first;
  };
  std::string_view rest = text;
  std::string_view first = word(&rest);
  const std::string_view base = first.substr(first.rfind('/') == std::string_view::npos ? 0 : first.rfind('/') + 1);
  if (base == "pytest" || base == "py.test") return std::string(rest);
  if (base.starts_with("python")) {
    if (word(&rest) != "-m") return std::nullopt;
    if (word(&rest) != "pytest") return std::nullopt;
    return std::string(rest);
  }
  return std::nullopt;
}

}  // namespace

absl::StatusOr<LocalizationRun> RunTestsForLocalization(const LocalizationRunOptions& options) {
  std::string dir_template = (fs::temp_directory_path() / "smallfix-localize-XXXXXX").string();
  if (::mkdtemp(dir_template.data()) == nullptr) {
    return absl::InternalError("cannot create a temporary directory for the test run");
  }
  const std::string temp = dir_template;
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    }
  } cleanup{temp};

  LocalizationRun run;
  std::string command = options.command;
  const std::optional<std::string> pytest_args = PytestArguments(options.command);
  const std::string junit = temp + "/junit.xml";
  const std::string rcfile = temp + "/coveragerc";
  const std::string python = ShellQuote(options.python);
  if (pytest_args) {
    // Dump every thread's stack a little before the limit, so a hang says where it waits.
    const int dump_after = std::max(1, static_cast<int>(options.timeout_seconds * 0.8));
    const std::string extra = absl::StrFormat(" -p no:cacheprovider --junitxml=%s -o faulthandler_timeout=%d",
                                              ShellQuote(junit), dump_after);
    if (options.coverage) {
      std::ofstream rc(rcfile);
      rc << "[run]\ndynamic_context = test_function\nrelative_files = True\ndata_file = "
         << temp << "/coverage.data\n";
      command = Concat(python, " -m coverage run --rcfile=", ShellQuote(rcfile), " -m pytest ",
                       *pytest_args, extra);
    } else {
      command = Concat(python, " -m pytest ", *pytest_args, extra);
    }
  } else if (options.coverage) {
    run.notes.push_back("coverage ranking needs a pytest command; ranked by the output alone");
  }

  ProcessOptions process;
  process.shell_command = command;
  process.cwd = options.repo_root;
  process.time_limit_seconds = options.timeout_seconds;
  process.cancel = options.cancel;
  process.env["PYTHONFAULTHANDLER"] = "1";
  process.env["PYTHONUNBUFFERED"] = "1";
  process.env["PYTHONDONTWRITEBYTECODE"] = "1";
  absl::StatusOr<ProcessResult> result = RunProcess(process);
  if (!result.ok()) return result.status();
  run.output = std::move(result->output);
  run.exit_code = result->exit_code;
  run.timed_out = result->timed_out;
  if (run.timed_out) {
    run.notes.push_back(absl::StrFormat("the test command ran past %g s and was killed (a hang?)",
                                        options.timeout_seconds));
  }
  if (result->cancelled) {
    run.notes.push_back("interrupted");
    return run;
  }
  if (!pytest_args) return run;
  run.junit_xml = ReadFile(junit).value_or("");

  if (options.coverage) {
    ProcessOptions report;
    report.shell_command = Concat(python, " -m coverage json --rcfile=", ShellQuote(rcfile),
                                  " --show-contexts -o ", ShellQuote(temp + "/coverage.json"));
    report.cwd = options.repo_root;
    report.time_limit_seconds = 300;
    report.cancel = options.cancel;
    report.env["PYTHONDONTWRITEBYTECODE"] = "1";
    absl::StatusOr<ProcessResult> reported = RunProcess(report);
    const std::string json = ReadFile(temp + "/coverage.json").value_or("");
    if (!reported.ok() || !reported->ok() || json.empty()) {
      run.notes.push_back(Concat("coverage report failed: ",
                                 reported.ok() ? reported->output : std::string(reported.status().message())));
      return run;
    }
    absl::StatusOr<std::vector<JUnitCase>> cases = ReadJUnit(run.junit_xml);
    absl::StatusOr<PathMapper> mapper = PathMapper::ForRepo(options.repo_root);
    if (!cases.ok() || !mapper.ok()) {
      run.notes.push_back("coverage ranking needs the JUnit report of the same run; it was unreadable");
      return run;
    }
    std::vector<std::string> failed, passed;
    for (const JUnitCase& test : *cases) {
      if (test.outcome == JUnitCase::Outcome::kPassed) passed.push_back(test.name);
      if (test.outcome == JUnitCase::Outcome::kFailed || test.outcome == JUnitCase::Outcome::kError) {
        failed.push_back(test.name);
      }
    }
    absl::StatusOr<LineScores> scores = OchiaiFromCoverageJson(json, failed, passed, *mapper);
    if (scores.ok()) {
      run.coverage = *std::move(scores);
    } else {
      run.notes.push_back(std::string(scores.status().message()));
    }
  }
  return run;
}

}  // namespace smallfix
