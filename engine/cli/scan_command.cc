// smallfix scan: flag latent bugs over a whole repo with the templates' scan stanzas.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>

#include "absl/strings/str_format.h"
#include "engine/cli/commands.h"
#include "engine/patterns/catalogue.h"
#include "engine/patterns/sarif.h"
#include "engine/scan/scanner.h"

namespace smallfix::cli {
namespace {

struct ScanArgs {
  std::string repo;
  std::string templates;
  int jobs = 0;  // 0: one per core
  bool json = false;
  std::string sarif;
  std::vector<std::string> files;  // only these (relative to repo); empty: the whole repo
  bool check = false;              // exit 1 on findings, 0 without (pre-commit, CI)
};

// The FILE arguments as repo-relative paths; an error for one outside the repo.
absl::StatusOr<std::vector<std::string>> RepoRelative(const std::string& repo,
                                                      const std::vector<std::string>& files) {
  std::error_code error;
  const std::filesystem::path root = std::filesystem::absolute(repo, error).lexically_normal();
  std::vector<std::string> out;
  for (const std::string& file : files) {
    const std::filesystem::path path =
        std::filesystem::path(file).is_absolute() ? std::filesystem::path(file) : root / file;
    const std::filesystem::path relative = path.lexically_normal().lexically_relative(root);
    if (relative.empty() || *relative.begin() == "..") {
      return absl::InvalidArgumentError(absl::StrFormat("%s is outside --repo %s", file, repo));
    }
    out.push_back(relative.string());
  }
  return out;
}

nlohmann::ordered_json ReportJson(const ScanReport& report) {
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  for (const Finding& finding : report.findings) {
    findings.push_back({{"file", finding.file},
                        {"line", finding.line},
                        {"column", finding.column},
                        {"template", finding.template_id},
                        {"family", finding.candidate.family},
                        {"message", finding.message},
                        {"diff", finding.diff}});
  }
  return {{"findings", findings},
          {"stats",
           {{"files", report.files},
            {"parsed", report.parsed},
            {"findings", report.findings.size()},
            {"seconds", std::round(report.seconds * 1000) / 1000}}},
          {"notes", report.notes}};
}

nlohmann::json ReportSarif(const ScanReport& report) {
  nlohmann::json rules = nlohmann::json::array();
  nlohmann::json results = nlohmann::json::array();
  std::set<std::string> seen_rules;
  for (const Finding& finding : report.findings) {
    if (seen_rules.insert(finding.template_id).second)
      rules.push_back(SarifRule(finding.candidate));
    results.push_back(
        SarifResult(finding.candidate, "warning", finding.message, {{"column", finding.column}}));
  }
  return SarifLog(std::move(rules), std::move(results));
}

void PrintText(const ScanReport& report) {
  for (const Finding& finding : report.findings) {
    std::cout << absl::StrFormat("%s:%d:%d: %s [%s]\n", finding.file, finding.line, finding.column,
                                 finding.message, finding.template_id);
    std::cout << finding.diff;
  }
  std::cout << absl::StrFormat("%d finding(s) in %d file(s); %d parsed, %.2f s\n",
                               report.findings.size(), report.files, report.parsed, report.seconds);
}

int Run(const ScanArgs& args) {
  std::error_code error;
  if (!std::filesystem::is_directory(args.repo, error)) {
    std::cerr << "smallfix: --repo " << args.repo << ": no such directory\n";
    return kExitBadInput;
  }
  absl::StatusOr<Catalogue> catalogue = Catalogue::Load(args.templates);
  if (!catalogue.ok()) {
    std::cerr << "smallfix: " << catalogue.status().message() << "\n";
    return kExitBadInput;
  }
  absl::StatusOr<Scanner> scanner =
      Scanner::Create(catalogue->templates, catalogue->history ? &*catalogue->history : nullptr);
  if (!scanner.ok()) {
    std::cerr << "smallfix: " << scanner.status().message() << "\n";
    return kExitBadInput;
  }
  if (scanner->template_count() == 0) {
    std::cerr << "smallfix: no template in " << catalogue->dir << " has a scan: stanza\n";
    return kExitBadInput;
  }
  const int jobs = args.jobs > 0 ? args.jobs : std::max(1u, std::thread::hardware_concurrency());
  absl::StatusOr<std::vector<std::string>> files = RepoRelative(args.repo, args.files);
  if (!files.ok()) {
    std::cerr << "smallfix: " << files.status().message() << "\n";
    return kExitBadInput;
  }
  absl::StatusOr<ScanReport> report = args.files.empty()
                                          ? scanner->ScanRepo(args.repo, jobs)
                                          : scanner->ScanFiles(args.repo, *std::move(files), jobs);
  if (!report.ok()) {
    std::cerr << "smallfix: " << report.status().message() << "\n";
    return ExitStatusFor(report.status());
  }
  for (const std::string& note : report->notes) std::cerr << "smallfix: " << note << "\n";
  if (!args.sarif.empty()) {
    std::ofstream out(args.sarif);
    out << ReportSarif(*report).dump(2) << "\n";
    if (!out) {
      std::cerr << "smallfix: cannot write --sarif " << args.sarif << "\n";
      return kExitBadInput;
    }
  } else if (args.json) {
    std::cout << ReportJson(*report).dump(2) << "\n";
  } else {
    PrintText(*report);
  }
  if (args.check) return report->findings.empty() ? 0 : 1;
  return report->findings.empty() ? kExitNone : kExitFound;
}

}  // namespace

void AddScanCommand(CLI::App& app, int* exit_status) {
  auto args = std::make_shared<ScanArgs>();
  CLI::App* scan =
      app.add_subcommand("scan", "Flag latent bugs in a repo with the templates' scan stanzas");
  scan->add_option("--repo", args->repo, "Repository (or any directory) to scan")->required();
  scan->add_option("--templates", args->templates,
                   "Template directory (default: the installed templates/)");
  scan->add_option("--jobs", args->jobs, "Threads (default: one per core)")
      ->check(CLI::PositiveNumber);
  auto* json =
      scan->add_flag("--json", args->json, "Print {\"findings\": [...], \"stats\": {...}} as JSON");
  scan->add_option("--sarif", args->sarif, "Write SARIF 2.1.0 with each finding's fix to FILE")
      ->excludes(json);
  scan->add_option("files", args->files,
                   "Scan only these files (relative to --repo), e.g. the ones a commit changes");
  scan->add_flag("--check", args->check,
                 "Exit 1 when there are findings and 0 when there are none (pre-commit, CI)");
  scan->callback([args, exit_status] { *exit_status = Run(*args); });
}

}  // namespace smallfix::cli
