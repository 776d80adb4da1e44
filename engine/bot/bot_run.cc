#include "engine/bot/bot_run.h"

#include <optional>
#include <set>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/dir_lock.h"
#include "engine/base/temp_dir.h"
#include "engine/bot/bot_issue.h"
#include "engine/vcs/run_sweep.h"

namespace smallfix {
namespace {

// The issues: one, or the open ones with the label, each once, at most `limit`.
absl::StatusOr<std::vector<GitHubIssue>> IssuesToRepair(GitHubClient& github,
                                                        const BotRunOptions& options) {
  std::vector<GitHubIssue> issues;
  if (options.issue > 0) {
    absl::StatusOr<GitHubIssue> issue = github.GetIssue(options.issue);
    if (!issue.ok()) return issue.status();
    issues.push_back(*std::move(issue));
    return issues;
  }
  absl::StatusOr<std::vector<GitHubIssue>> labelled = github.ListOpenIssuesWithLabel(options.label);
  if (!labelled.ok()) return labelled.status();
  std::set<int> seen;
  for (GitHubIssue& issue : *labelled) {
    if (seen.insert(issue.number).second) issues.push_back(std::move(issue));
  }
  if (issues.empty()) options.say(Concat("no open issue has the label ", options.label));
  if (static_cast<int>(issues.size()) > options.limit) {
    options.say(
        absl::StrFormat("%d open issues have the label %s; this run takes the first %d (--limit)",
                        issues.size(), options.label, options.limit));
    issues.resize(options.limit);
  }
  return issues;
}

BotContext ContextOf(const BotRunOptions& options, GitHubClient& github,
                     const GitHubRepository& repository, const std::string& checkout) {
  BotContext context;
  context.github = &github;
  context.repository = repository;
  context.checkout = checkout;
  context.auth = GitAuth{options.token, options.cancel};
  context.identity = options.identity;
  context.repair = options.repair;
  context.pull_labels = options.pull_labels;
  context.dry_run = options.dry_run;
  context.quiet_on_failure = options.quiet_on_failure;
  context.engine_version = options.engine_version;
  context.cancel = options.cancel;
  context.say = options.say;
  if (!options.quiet) context.progress = options.progress;
  return context;
}

// Each issue in turn; the first issue's error, OK when every one was handled.
absl::Status RepairEach(const BotContext& context, const std::vector<GitHubIssue>& issues) {
  absl::Status first_error;
  for (const GitHubIssue& issue : issues) {
    if (context.cancel != nullptr && context.cancel->load()) break;
    if (context.progress)
      context.progress(absl::StrFormat("issue #%d: %s", issue.number, issue.title));
    absl::StatusOr<IssueOutcome> outcome = ProcessIssue(context, issue);
    if (!outcome.ok()) {
      context.say(absl::StrFormat("#%d: error: %s", issue.number, outcome.status().message()));
      if (first_error.ok()) first_error = outcome.status();
    }
  }
  return first_error;
}

}  // namespace

absl::StatusOr<BotRunOutcome> RunBot(const BotRunOptions& options) {
  GitHubOptions api;
  api.api = options.api;
  api.token = options.token;
  api.max_wait_seconds = options.max_wait_seconds;
  api.cancel = options.cancel;
  api.progress = options.progress;
  absl::StatusOr<GitHubClient> github = GitHubClient::Create(std::move(api), options.repository);
  if (!github.ok()) return github.status();
  absl::StatusOr<GitHubRepository> repository = github->GetRepository();
  if (!repository.ok()) return repository.status();
  if (repository->clone_url.empty() || repository->default_branch.empty()) {
    return absl::FailedPreconditionError(
        Concat(options.repository, ": the API gave no clone URL or default branch"));
  }
  absl::StatusOr<std::vector<GitHubIssue>> issues = IssuesToRepair(*github, options);
  if (!issues.ok()) return issues.status();
  if (issues->empty()) return BotRunOutcome{};
  // The clone: a kept checkout is reused; otherwise a temporary one.
  std::optional<TempDir> scratch;
  std::string checkout = options.checkout;
  if (checkout.empty()) {
    absl::StatusOr<TempDir> dir = TempDir::Create("smallfix-bot");
    if (!dir.ok()) return dir.status();
    scratch.emplace(*std::move(dir));
    checkout = scratch->path() + "/repo";
  }
  // A kept clone is changed by the run that uses it (fetch, checkout, commits on the fix
  // branch): bot runs at once on one kept checkout take turns.
  std::optional<DirLock> checkout_lock;
  if (!options.checkout.empty()) {
    absl::StatusOr<DirLock> lock = DirLock::Acquire(
        checkout,
        [&] {
          options.progress(
              Concat("waiting for another smallfix bot run that is using the checkout ", checkout,
                     " to finish"));
        },
        options.cancel);
    if (!lock.ok()) return lock.status();
    checkout_lock.emplace(*std::move(lock));
  }
  if (!options.quiet) options.progress(Concat("fetching ", repository->clone_url));
  absl::Status fetched =
      CloneOrFetch(repository->clone_url, checkout, GitAuth{options.token, options.cancel});
  if (!fetched.ok()) return fetched;
  if (std::string note = SweepNote(SweepBeforeRun(checkout)); !note.empty() && !options.quiet)
    options.progress(note);
  return BotRunOutcome{RepairEach(ContextOf(options, *github, *repository, checkout), *issues)};
}

}  // namespace smallfix
