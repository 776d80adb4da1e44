#ifndef SMALLFIX_ENGINE_BOT_BOT_RUN_H_
#define SMALLFIX_ENGINE_BOT_BOT_RUN_H_

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/repair/request_builder.h"
#include "engine/vcs/branch_commit.h"

namespace smallfix {

// One run of the bot over a repository's issues (`smallfix bot`).
struct BotRunOptions {
  std::string repository;  // OWNER/NAME
  std::string api;         // REST base
  std::string token;       // "": read-only (dry runs of public repositories)
  double max_wait_seconds = 300;
  int issue = 0;      // one issue, or ...
  std::string label;  // ... every open issue with this label, each once, at most `limit`
  int limit = 10;
  std::string checkout;  // a clone kept between runs; "": a temporary one
  GitIdentity identity;  // author and committer of the bot's commits
  RepairInputs repair;   // templates, time limits, jobs; repo and failure are set per issue
  std::vector<std::string> pull_labels;
  bool dry_run = false;
  bool quiet_on_failure = false;
  std::string engine_version;
  const std::atomic<bool>* cancel = nullptr;
  std::function<void(const std::string&)> say;  // results
  // Progress (each issue, the repair's stages) unless `quiet`; the API's waits always.
  std::function<void(const std::string&)> progress;
  bool quiet = false;
};

// What a run that got through its issues leaves: one issue's trouble (a missing test command,
// a refused push) is said on its own line and the others still run; the first such error is
// kept here (OK: every issue was handled).
struct BotRunOutcome {
  absl::Status first_issue_error;
};

// Fetches the repository, repairs each issue and opens, updates or leaves alone its pull
// request, or comments once (bot_issue.h). Errors: what stops the whole run (the API, the
// clone).
absl::StatusOr<BotRunOutcome> RunBot(const BotRunOptions& options);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_BOT_BOT_RUN_H_
