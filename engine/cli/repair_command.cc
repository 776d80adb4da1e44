// smallfix repair: localize (or take --site), match templates, rank, (validate), report.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "engine/cli/commands.h"
#include "engine/cli/symptom_parser.h"
#include "engine/index/repo_index.h"
#include "engine/patterns/catalogue.h"
#include "engine/rank/heuristic_ranker.h"
#include "engine/repair/candidate_generator.h"

namespace smallfix::cli {
namespace {

struct Options {
  std::string repo;
  std::vector<std::string> sites;  // FILE:LINE
  std::string symptom;
  std::string templates;
  bool no_validate = false;
  bool json = false;
  int top = 0;  // 0: all
};

absl::StatusOr<RepairSite> ParseSite(const std::string& text) {
  const size_t colon = text.rfind(':');
  int line = 0;
  if (colon == std::string::npos || colon == 0 ||
      !absl::SimpleAtoi(std::string_view(text).substr(colon + 1).data(), &line) || line < 1) {
    return absl::InvalidArgumentError(absl::StrFormat("--site %s: expected FILE:LINE", text));
  }
  RepairSite site;
  site.file = text.substr(0, colon);
  site.line = line;
  return site;
}

int Run(const Options& options) {
  std::error_code error;
  if (!std::filesystem::is_directory(options.repo, error)) {
    std::cerr << "smallfix: --repo " << options.repo << " is not a directory\n";
    return kExitBadInput;
  }
  if (options.sites.empty()) {
    std::cerr << "smallfix: repair needs --site FILE:LINE (localization from --log/--issue is not built yet)\n";
    return kExitBadInput;
  }
  if (!options.no_validate) {
    std::cerr << "smallfix: validation is not built yet; pass --no-validate to list candidates\n";
    return kExitBadInput;
  }
  std::vector<RepairSite> sites;
  for (const std::string& text : options.sites) {
    absl::StatusOr<RepairSite> site = ParseSite(text);
    if (!site.ok()) {
      std::cerr << "smallfix: " << site.status().message() << "\n";
      return kExitBadInput;
    }
    sites.push_back(*site);
  }
  absl::StatusOr<Catalogue> catalogue = Catalogue::Load(options.templates);
  if (!catalogue.ok()) {
    std::cerr << "smallfix: " << catalogue.status().message() << "\n";
    return kExitBadInput;
  }
  absl::StatusOr<RepoIndex> index = RepoIndex::Build(options.repo);
  if (!index.ok()) {
    std::cerr << "smallfix: " << index.status().message() << "\n";
    return kExitBadInput;
  }
  const SymptomInput symptom = ParseSymptom(options.symptom);
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::vector<ScoredCandidate>> candidates =
      GenerateCandidates(options.repo, sites, symptom, *catalogue, &*index);
  if (!candidates.ok()) {
    std::cerr << "smallfix: " << candidates.status().message() << "\n";
    return kExitBadInput;
  }
  HeuristicRanker().Rank(*candidates);
  const size_t total = candidates->size();
  if (options.top > 0 && candidates->size() > static_cast<size_t>(options.top)) {
    candidates->resize(options.top);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string symptom_text =
      symptom.type.empty() ? symptom.message : symptom.type + ": " + symptom.message;
  if (options.json) {
    nlohmann::json out;
    out["sites"] = nlohmann::json::array();
    for (const RepairSite& site : sites) {
      out["sites"].push_back({{"file", site.file}, {"line", site.line}, {"score", site.score},
                              {"symptom", symptom_text}, {"class", symptom.symptom_class}});
    }
    out["candidates"] = nlohmann::json::array();
    int rank = 0;
    for (const ScoredCandidate& c : *candidates) {
      out["candidates"].push_back({{"rank", ++rank},
                                   {"template", c.candidate.template_id},
                                   {"family", c.candidate.family},
                                   {"summary", c.candidate.summary},
                                   {"file", c.candidate.file},
                                   {"line", c.candidate.line},
                                   {"diff", c.diff},
                                   {"lines_changed", c.lines_changed},
                                   {"score", c.score},
                                   {"validation", {{"status", "skipped"}, {"stages", nlohmann::json::array()}, {"seconds", 0}}}});
    }
    out["stats"] = {{"candidates", total}, {"validated", 0}, {"seconds", seconds}};
    std::cout << out.dump(2) << "\n";
  } else {
    std::cout << "symptom: " << (symptom_text.empty() ? "(none given)" : symptom_text) << "\n";
    for (const RepairSite& site : sites) std::cout << "site:    " << site.file << ":" << site.line << "\n";
    std::cout << total << " candidate(s)\n";
    int rank = 0;
    for (const ScoredCandidate& c : *candidates) {
      std::cout << absl::StrFormat("\n#%d %s (%s, score %.2f, %d line(s))\n%s", ++rank,
                                   c.candidate.template_id, c.candidate.summary, c.score,
                                   c.lines_changed, c.diff);
    }
  }
  return candidates->empty() ? kExitNone : kExitFound;
}

}  // namespace

void AddRepairCommand(CLI::App& app, int* exit_status) {
  auto options = std::make_shared<Options>();
  CLI::App* repair = app.add_subcommand("repair", "Find and validate a small patch for a failure");
  repair->add_option("--repo", options->repo, "The repository to repair")->required();
  repair->add_option("--site", options->sites, "Repair at FILE:LINE (perfect localization); repeatable");
  repair->add_option("--symptom", options->symptom, "The error text, \"Type: message\"");
  repair->add_option("--templates", options->templates, "Template directory (default: the installed templates/)");
  repair->add_flag("--no-validate", options->no_validate, "List candidates without validating them");
  repair->add_flag("--json", options->json, "Print one JSON object (see DESIGN.md)");
  repair->add_option("--top", options->top, "Keep the K best candidates");
  repair->callback([options, exit_status] { *exit_status = Run(*options); });
}

}  // namespace smallfix::cli
