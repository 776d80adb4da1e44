// smallfix templates list [--json] [--dir DIR] | test [DIR]
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "engine/cli/commands.h"
#include "engine/localize/symptom.h"
#include "engine/patterns/catalogue.h"
#include "engine/patterns/example_check.h"
#include "engine/scan/scan_examples.h"

namespace smallfix::cli {
namespace {

struct Options {
  std::string dir;
  bool json = false;
  bool verbose = false;
};

int List(const Options& options) {
  absl::StatusOr<Catalogue> catalogue = Catalogue::Load(options.dir);
  if (!catalogue.ok()) {
    std::cerr << "smallfix: " << catalogue.status().message() << "\n";
    return kExitBadInput;
  }
  if (options.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const Template& t : catalogue->templates) {
      list.push_back(
          {{"id", t.id}, {"family", t.family}, {"summary", t.summary}, {"file", t.file}});
    }
    std::cout << nlohmann::json{{"templates", list}}.dump(2) << "\n";
    return kExitFound;
  }
  for (const Template& t : catalogue->templates) {
    std::cout << t.id << std::string(t.id.size() < 36 ? 36 - t.id.size() : 1, ' ') << t.summary
              << "\n";
  }
  std::cout << catalogue->templates.size() << " templates in " << catalogue->dir << "\n";
  return kExitFound;
}

int Test(const Options& options) {
  absl::StatusOr<Catalogue> catalogue = Catalogue::Load(options.dir);
  if (!catalogue.ok()) {
    std::cerr << "smallfix: " << catalogue.status().message() << "\n";
    return kExitBadInput;
  }
  const ApiHistory* history = catalogue->history ? &*catalogue->history : nullptr;
  int passed = 0, failed = 0;
  for (const Template& t : catalogue->templates) {
    std::vector<ExampleResult> results = CheckExamples(t, history, ClassifiedSymptomFromText);
    for (ExampleResult& result : CheckScanExamples(t, history))
      results.push_back(std::move(result));
    for (const ExampleResult& result : results) {
      if (result.passed) {
        ++passed;
        if (options.verbose)
          std::cout << "ok   " << result.template_id << ": " << result.example << "\n";
      } else {
        ++failed;
        std::cout << "FAIL " << result.template_id << ": " << result.example << " (" << t.file
                  << ")\n  " << result.detail << "\n";
      }
    }
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? kExitFound : kExitNone;
}

}  // namespace

void AddTemplatesCommand(CLI::App& app, int* exit_status) {
  CLI::App* templates =
      app.add_subcommand("templates", "List the fix-pattern templates or check their examples");
  templates->require_subcommand(1);
  auto options = std::make_shared<Options>();
  CLI::App* list = templates->add_subcommand("list", "List the templates");
  list->add_option("--dir", options->dir, "Template directory (default: the installed templates/)");
  list->add_flag("--json", options->json, "Print {\"templates\": [...]} as JSON");
  list->callback([options, exit_status] { *exit_status = List(*options); });
  CLI::App* test = templates->add_subcommand("test", "Check every template's examples");
  test->add_option("dir", options->dir, "Template directory (default: the installed templates/)");
  test->add_flag("-v,--verbose", options->verbose, "Also list the examples that pass");
  test->callback([options, exit_status] { *exit_status = Test(*options); });
}

}  // namespace smallfix::cli
