#ifndef SMALLFIX_ENGINE_BOT_BOT_ISSUE_H_
#define SMALLFIX_ENGINE_BOT_BOT_ISSUE_H_

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/forge/github_client.h"
#include "engine/repair/request_builder.h"
#include "engine/vcs/branch_commit.h"
#include "engine/vcs/remote_sync.h"

namespace smallfix {

// Everything `smallfix bot` needs for one issue, set up once per run.
struct BotContext {
  GitHubClient* github = nullptr;
  GitHubRepository repository;  // default branch and clone URL
  std::string checkout;         // the bot's clone of the repository, fetched this run
  GitAuth auth;
  GitIdentity identity;  // author and committer of the bot's commits
  RepairInputs repair;   // templates, time limits, jobs; repo and failure are set per issue
  std::vector<std::string> pull_labels;  // added to pull requests the bot opens
  bool dry_run = false;
  bool quiet_on_failure = false;
  std::string engine_version;
  const std::atomic<bool>* cancel = nullptr;
  std::function<void(const std::string&)> say;       // results, stdout
  std::function<void(const std::string&)> progress;  // progress, stderr; may be empty
};

enum class IssueOutcome {
  kPullOpened,
  kPullUpdated,
  kCommented,    // no plausible patch; the one comment was posted
  kNothingToDo,  // no plausible patch and already commented (or --quiet-on-failure)
  kLeftAlone,  // a human closed the pull request for this patch, or the branch has others' commits
  kSkipped,    // not an open issue
};

// The branch the bot pushes for issue `number`: smallfix/issue-N.
std::string BotBranch(int number);

// Repairs one issue and opens, updates or leaves alone its pull request, or comments once
// when there is no plausible patch. With dry_run nothing is pushed or posted; `say` tells
// what would be.
absl::StatusOr<IssueOutcome> ProcessIssue(const BotContext& context, const GitHubIssue& issue);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_BOT_BOT_ISSUE_H_
