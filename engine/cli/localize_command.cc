// smallfix localize: find the statements to repair from a failure.
#include <sys/stat.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "absl/strings/str_format.h"
#include "engine/cli/commands.h"
#include "engine/cli/interrupts.h"
#include "engine/localize/localizer.h"
#include "engine/repair/failure_input.h"
#include "validators/process/python_env.h"

namespace smallfix::cli {
namespace {

struct LocalizeArgs {
  std::string repo;
  std::string log;
  std::string issue;
  std::string junit;
  std::string test;
  bool coverage = false;
  double timeout = 600;
  bool json = false;
  std::string python = DefaultInterpreter();
  int top = 10;
};

nlohmann::ordered_json ToJson(const Localization& localization) {
  nlohmann::ordered_json fields = nlohmann::ordered_json::object();
  for (const auto& [key, value] : localization.symptom.fields) fields[key] = value;
  nlohmann::ordered_json sites = nlohmann::ordered_json::array();
  for (const Site& site : localization.sites) {
    sites.push_back({{"file", site.file},
                     {"line", site.line},
                     {"function", site.function},
                     {"score", std::round(site.score * 1000) / 1000},
                     {"symptom", site.symptom},
                     {"class", site.symptom_class},
                     {"ranks", site.ranks}});
  }
  nlohmann::ordered_json out = {{"symptom",
                                 {{"type", localization.symptom.exception_type},
                                  {"message", localization.symptom.message},
                                  {"class", localization.symptom.symptom_class},
                                  {"fields", fields}}},
                                {"sites", sites}};
  if (!localization.notes.empty()) out["notes"] = localization.notes;
  return out;
}

void PrintHuman(const Localization& localization) {
  const Symptom& symptom = localization.symptom;
  std::cout << "symptom: " << symptom.Text() << "  [" << symptom.symptom_class << "]\n";
  if (!symptom.fields.empty()) {
    std::cout << "fields: ";
    bool first = true;
    for (const auto& [key, value] : symptom.fields) {
      std::cout << (first ? "" : ", ") << key << "=" << value;
      first = false;
    }
    std::cout << "\n";
  }
  if (localization.sites.empty()) {
    std::cout << "no site in the repo: every frame lies outside it\n";
  }
  int number = 0;
  for (const Site& site : localization.sites) {
    std::cout << absl::StrFormat("%2d. %s:%d in %s  (score %.2f", ++number, site.file, site.line,
                                 site.function, site.score);
    if (!site.ranks.empty()) {
      std::cout << ", ranks ";
      for (size_t i = 0; i < site.ranks.size(); ++i) std::cout << (i ? "," : "") << site.ranks[i];
    }
    std::cout << ")\n";
  }
  for (const std::string& note : localization.notes) std::cout << "note: " << note << "\n";
}

// The failure the flags name: a file (--log, --issue, --junit; --junit beside one of the
// others is read too) or a test command to run (--test).
FailureSource SourceOf(const LocalizeArgs& args) {
  FailureSource source;
  source.test = args.test;
  source.coverage = args.coverage;
  source.run.time_limit_seconds = args.timeout;
  source.run.interpreter = args.python;
  if (!args.test.empty()) return source;
  source.path = !args.log.empty() ? args.log : !args.issue.empty() ? args.issue : args.junit;
  source.kind = !args.issue.empty() ? FailureKind::kIssue
                : !args.log.empty() ? FailureKind::kAuto
                                    : FailureKind::kJUnit;
  if (!args.log.empty() || !args.issue.empty()) source.junit_path = args.junit;
  return source;
}

int RunLocalize(const LocalizeArgs& args) {
  struct stat info;
  if (::stat(args.repo.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    std::cerr << "smallfix localize: --repo '" << args.repo << "' is not a directory\n";
    return kExitBadInput;
  }
  FailureSource source = SourceOf(args);
  if (source.test.empty() && source.path.empty()) {
    std::cerr << "smallfix localize: give the failure with --log FILE, --issue FILE, --junit FILE "
                 "or --test CMD\n";
    return kExitBadInput;
  }
  if (!source.test.empty()) source.run.cancel = InstallInterruptHandlers();
  absl::StatusOr<FailureInput> input = GatherFailure(args.repo, source);
  if (input.ok() && !source.test.empty() && InterruptSignal() != 0) {
    std::cerr << "smallfix localize: interrupted; the test run was stopped\n";
    return 128 + InterruptSignal();
  }
  if (!input.ok()) {
    std::cerr << "smallfix localize: " << input.status().message() << "\n";
    return ExitStatusFor(input.status());
  }
  if (input->passed) {
    std::cerr << "smallfix localize: the test command passed; there is no failure to localize\n";
    return kExitNone;
  }
  absl::StatusOr<Localization> localization =
      Localize(args.repo, input->text, LocalizeOptionsFor(*input, args.top));
  if (!localization.ok()) {
    std::cerr << "smallfix localize: " << localization.status().message() << "\n";
    return kExitBadInput;
  }
  for (std::string& note : input->notes) localization->notes.push_back(std::move(note));
  if (args.json) {
    std::cout << ToJson(*localization).dump(2) << "\n";
  } else {
    PrintHuman(*localization);
  }
  return localization->sites.empty() ? kExitNone : kExitFound;
}

}  // namespace

void AddLocalizeCommand(CLI::App& app, int* exit_status) {
  auto args = std::make_shared<LocalizeArgs>();
  CLI::App* command = app.add_subcommand(
      "localize", "find the statements to repair from a failure (traceback, log, issue, test run)");
  command->add_option("--repo", args->repo, "the repository the failure comes from")->required();
  CLI::Option* log = command->add_option("--log", args->log, "a console log or pytest output");
  CLI::Option* issue =
      command->add_option("--issue", args->issue, "a GitHub issue body (markdown)");
  CLI::Option* test = command->add_option("--test", args->test,
                                          "run this command in the repo and localize its failure");
  command->add_option("--junit", args->junit, "pytest JUnit XML (alone or with --log/--issue)");
  log->excludes(issue)->excludes(test);
  issue->excludes(test);
  command->add_flag(
      "--coverage", args->coverage,
      "with --test (pytest): also rank lines by Ochiai over passing and failing tests");
  command->add_option("--timeout", args->timeout, "seconds before --test is killed (default 600)")
      ->check(CLI::PositiveNumber);
  command->add_option(
      "--python", args->python,
      "interpreter with pytest/coverage for --test (default: the first python3 on PATH)");
  command->add_option("--top", args->top, "at most this many sites (default 10)")
      ->check(CLI::PositiveNumber);
  command->add_flag("--json", args->json, "print one JSON object");
  command->callback([args, exit_status] { *exit_status = RunLocalize(*args); });
}

}  // namespace smallfix::cli
