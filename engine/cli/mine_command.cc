// smallfix mine --repo DIR [--since DATE] [--max-lines N] [--json] [--propose DIR] [--top K]
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "engine/cli/commands.h"
#include "engine/mine/clustering.h"
#include "engine/mine/edit_shape.h"
#include "engine/mine/history_walk.h"
#include "engine/mine/proposal_writer.h"

namespace smallfix::cli {
namespace {

struct Options {
  std::string repo;
  std::string since;
  int max_lines = 10;
  bool json = false;
  std::string propose;
  int top = 20;
};

// YYYY-MM-DD (UTC midnight) as seconds since the epoch, or nullopt when it is not one.
std::optional<int64_t> ParseDate(const std::string& text) {
  int year = 0, month = 0, day = 0;
  char rest = 0;
  if (text.size() != 10 ||
      std::sscanf(text.c_str(), "%4d-%2d-%2d%c", &year, &month, &day, &rest) != 3) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1970) return std::nullopt;
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  const time_t seconds = timegm(&tm);
  std::tm check{};
  gmtime_r(&seconds, &check);
  if (check.tm_mday != day) return std::nullopt;  // 2024-02-31 and the like
  return static_cast<int64_t>(seconds);
}

nlohmann::json HunkJson(const mine::HunkShape& hunk) {
  nlohmann::json edits = nlohmann::json::array();
  for (const mine::AbstractEdit& edit : hunk.edits) {
    edits.push_back({{"kind", edit.kind},
                     {"where", edit.where},
                     {"before", edit.before},
                     {"after", edit.after}});
  }
  return {{"sha", hunk.sha},
          {"summary", hunk.summary},
          {"file", hunk.file},
          {"line", hunk.line},
          {"edits", edits}};
}

// What one mining run found, for printing.
struct Mined {
  mine::WalkStats stats;
  size_t hunk_count = 0;
  std::vector<mine::Cluster> clusters;
  std::vector<std::string> proposals;
  double seconds = 0;
};

void Print(const Options& options, const Mined& mined) {
  const mine::WalkStats& stats = mined.stats;
  const size_t hunk_count = mined.hunk_count;
  const std::vector<mine::Cluster>& clusters = mined.clusters;
  const std::vector<std::string>& proposals = mined.proposals;
  const double seconds = mined.seconds;
  const size_t shown =
      options.top > 0 ? std::min<size_t>(clusters.size(), options.top) : clusters.size();
  if (options.json) {
    nlohmann::json list = nlohmann::json::array();
    for (size_t i = 0; i < shown; ++i) {
      nlohmann::json examples = nlohmann::json::array();
      for (size_t k = 0; k < clusters[i].hunks.size() && k < 3; ++k)
        examples.push_back(HunkJson(clusters[i].hunks[k]));
      list.push_back({{"rank", i + 1},
                      {"shape", clusters[i].shape},
                      {"hunks", clusters[i].hunks.size()},
                      {"commits", clusters[i].commits},
                      {"examples", examples}});
    }
    std::cout << nlohmann::json{{"commits_walked", stats.walked},
                                {"commits_kept", stats.kept},
                                {"hunks", hunk_count},
                                {"clusters_total", clusters.size()},
                                {"clusters", list},
                                {"proposals", proposals},
                                {"seconds", seconds}}
                     .dump(2)
              << "\n";
  } else {
    std::cout << stats.walked << " commits walked, " << stats.kept
              << " kept (<= " << options.max_lines << " changed non-test Python lines), "
              << hunk_count << " hunks in " << clusters.size() << " clusters, "
              << static_cast<int>(seconds * 10) / 10.0 << " s\n\n";
    for (size_t i = 0; i < shown; ++i) {
      std::cout << "#" << i + 1 << "  " << clusters[i].hunks.size() << " hunks, "
                << clusters[i].commits << " commits  " << clusters[i].shape << "\n";
      for (size_t k = 0; k < clusters[i].hunks.size() && k < 3; ++k) {
        const mine::HunkShape& hunk = clusters[i].hunks[k];
        std::cout << "    " << hunk.sha.substr(0, 10) << " " << hunk.file << ":" << hunk.line
                  << "  " << hunk.summary.substr(0, 70) << "\n";
      }
    }
    for (const std::string& path : proposals) std::cout << "draft template: " << path << "\n";
  }
}

int Run(const Options& options) {
  mine::WalkOptions walk;
  walk.max_lines = options.max_lines;
  if (options.max_lines < 1) {
    std::cerr << "smallfix: --max-lines must be at least 1, not " << options.max_lines << "\n";
    return kExitBadInput;
  }
  if (!options.since.empty()) {
    walk.since = ParseDate(options.since);
    if (!walk.since) {
      std::cerr << "smallfix: --since '" << options.since
                << "' is not a date of the form YYYY-MM-DD\n";
      return kExitBadInput;
    }
  }
  const auto start = std::chrono::steady_clock::now();
  std::vector<mine::HunkShape> hunks;
  mine::WalkStats stats;
  const absl::Status walked = mine::WalkHistory(
      options.repo, walk,
      [&](mine::MinedCommit commit) {
        for (mine::HunkShape& hunk : mine::ShapeCommit(commit)) hunks.push_back(std::move(hunk));
      },
      &stats);
  if (!walked.ok()) {
    std::cerr << "smallfix: " << walked.message() << "\n";
    return kExitBadInput;
  }
  const size_t hunk_count = hunks.size();
  const std::vector<mine::Cluster> clusters = mine::ClusterHunks(std::move(hunks));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<std::string> proposals;
  if (!options.propose.empty()) {
    absl::StatusOr<std::vector<std::string>> written =
        mine::WriteProposals(clusters, options.propose);
    if (!written.ok()) {
      std::cerr << "smallfix: " << written.status().message() << "\n";
      return kExitBadInput;
    }
    proposals = std::move(*written);
  }
  Print(options, {stats, hunk_count, clusters, proposals, seconds});
  return clusters.empty() ? kExitNone : kExitFound;
}

}  // namespace

void AddMineCommand(CLI::App& app, int* exit_status) {
  CLI::App* command =
      app.add_subcommand("mine", "Cluster the small fixes in a git history by their edit shape");
  auto options = std::make_shared<Options>();
  command->add_option("--repo", options->repo, "Git repository (bare or a clone)")->required();
  command->add_option("--since", options->since, "Only commits from this date on (YYYY-MM-DD)");
  command->add_option("--max-lines", options->max_lines,
                      "Most changed non-test Python lines of a kept commit");
  command->add_flag("--json", options->json, "Print the clusters as JSON");
  command->add_option("--propose", options->propose,
                      "Write a draft template YAML per cluster into DIR");
  command->add_option("--top", options->top, "Clusters to print (0: all)");
  command->callback([options, exit_status] { *exit_status = Run(*options); });
}

}  // namespace smallfix::cli
