// smallfix bot: repairs GitHub issues and opens (or updates) one suggested-fix pull request
// per issue, or comments once when there is no plausible patch.
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <set>

#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "engine/base/concat.h"
#include "engine/base/dir_lock.h"
#include "engine/base/temp_dir.h"
#include "engine/cli/bot_issue.h"
#include "engine/cli/commands.h"
#include "engine/cli/interrupts.h"
#include "engine/cli/llm_flags.h"
#include "engine/cli/sandbox_flags.h"
#include "engine/vcs/run_sweep.h"

namespace smallfix::cli {
namespace {

struct BotFlags {
  std::string github, label, api = kGitHubApi, checkout;
  int issue = 0;
  int limit = 10;
  double max_wait = 300;
  std::string author_name = "smallfix", author_email = "smallfix@users.noreply.github.com";
  std::vector<std::string> pull_labels;
  bool dry_run = false, quiet_on_failure = false, quiet = false;
  RepairFlags repair;
};

// Every line the bot prints passes through here: the token never reaches a terminal or a log.
struct Output {
  std::string token;
  std::string Scrub(std::string text) const {
    if (!token.empty()) absl::StrReplaceAll({{token, "[token]"}}, &text);
    return text;
  }
  void Say(const std::string& line) const { std::cout << Scrub(line) << "\n" << std::flush; }
  void Progress(const std::string& line) const { std::cerr << "smallfix: " << Scrub(line) << "\n"; }
};

int Fail(const Output& output, const absl::Status& status) {
  output.Progress(std::string(status.message()));
  return ExitStatusFor(status);
}

int Run(const BotFlags& flags) {
  const std::atomic<bool>* cancel = InstallInterruptHandlers();
  Output output{GitHubTokenFromEnvironment()};
  if ((flags.issue > 0) == !flags.label.empty()) {
    return Fail(output, absl::InvalidArgumentError(
                            "give exactly one of --issue N (N > 0) or --label LABEL"));
  }
  if (flags.limit < 1) return Fail(output, absl::InvalidArgumentError("--limit must be 1 or more"));
  if (output.token.empty() && !flags.dry_run) {
    return Fail(output, absl::InvalidArgumentError("set GITHUB_TOKEN (or SMALLFIX_GITHUB_TOKEN) to "
                                                   "push and post; --dry-run works without one"));
  }
  if (flags.author_email.empty() || flags.author_name.empty()) {
    return Fail(output,
                absl::InvalidArgumentError("--author-name and --author-email must not be empty"));
  }
  GitHubOptions options;
  options.api = flags.api;
  options.token = output.token;
  options.max_wait_seconds = flags.max_wait;
  options.cancel = cancel;
  options.progress = [&output](const std::string& line) { output.Progress(line); };
  absl::StatusOr<GitHubClient> github = GitHubClient::Create(std::move(options), flags.github);
  if (!github.ok()) return Fail(output, github.status());
  absl::StatusOr<GitHubRepository> repository = github->GetRepository();
  if (!repository.ok()) return Fail(output, repository.status());
  if (repository->clone_url.empty() || repository->default_branch.empty()) {
    return Fail(output, absl::FailedPreconditionError(
                            Concat(flags.github, ": the API gave no clone URL or default branch")));
  }

  // The issues: one, or the open ones with the label, each once, at most --limit.
  std::vector<GitHubIssue> issues;
  if (flags.issue > 0) {
    absl::StatusOr<GitHubIssue> issue = github->GetIssue(flags.issue);
    if (!issue.ok()) return Fail(output, issue.status());
    issues.push_back(*std::move(issue));
  } else {
    absl::StatusOr<std::vector<GitHubIssue>> labelled =
        github->ListOpenIssuesWithLabel(flags.label);
    if (!labelled.ok()) return Fail(output, labelled.status());
    std::set<int> seen;
    for (GitHubIssue& issue : *labelled) {
      if (seen.insert(issue.number).second) issues.push_back(std::move(issue));
    }
    if (issues.empty()) output.Say(Concat("no open issue has the label ", flags.label));
    if (static_cast<int>(issues.size()) > flags.limit) {
      output.Say(
          absl::StrFormat("%d open issues have the label %s; this run takes the first %d (--limit)",
                          issues.size(), flags.label, flags.limit));
      issues.resize(flags.limit);
    }
  }
  if (issues.empty()) return kExitFound;

  // The clone: --checkout DIR is kept and reused; otherwise a temporary one.
  std::optional<TempDir> scratch;
  std::string checkout = flags.checkout;
  if (checkout.empty()) {
    absl::StatusOr<TempDir> dir = TempDir::Create("smallfix-bot");
    if (!dir.ok()) return Fail(output, dir.status());
    scratch.emplace(*std::move(dir));
    checkout = scratch->path() + "/repo";
  }
  // A kept clone is changed by the run that uses it (fetch, checkout, commits on the fix
  // branch): bot runs at once on one --checkout take turns.
  std::optional<DirLock> checkout_lock;
  if (!flags.checkout.empty()) {
    absl::StatusOr<DirLock> lock = DirLock::Acquire(
        checkout,
        [&] {
          output.Progress(Concat("waiting for another smallfix bot run that is using the checkout ",
                                 checkout, " to finish"));
        },
        cancel);
    if (cancel->load()) return 128 + (InterruptSignal() ? InterruptSignal() : 2);
    if (!lock.ok()) return Fail(output, lock.status());
    checkout_lock.emplace(*std::move(lock));
  }
  GitAuth auth{output.token, cancel};
  if (!flags.quiet) output.Progress(Concat("fetching ", repository->clone_url));
  if (absl::Status fetched = CloneOrFetch(repository->clone_url, checkout, auth); !fetched.ok()) {
    return Fail(output, fetched);
  }
  if (std::string note = SweepNote(SweepBeforeRun(checkout)); !note.empty() && !flags.quiet)
    output.Progress(note);

  BotContext context;
  context.github = &*github;
  context.repository = *repository;
  context.checkout = checkout;
  context.auth = auth;
  context.identity = {flags.author_name, flags.author_email};
  context.repair = flags.repair;
  context.pull_labels = flags.pull_labels;
  context.dry_run = flags.dry_run;
  context.quiet_on_failure = flags.quiet_on_failure;
  context.engine_version = SMALLFIX_VERSION;
  context.cancel = cancel;
  context.say = [&output](const std::string& line) { output.Say(line); };
  if (!flags.quiet)
    context.progress = [&output](const std::string& line) { output.Progress(line); };

  int status = kExitFound;
  for (const GitHubIssue& issue : issues) {
    if (cancel->load()) break;
    if (!flags.quiet) output.Progress(absl::StrFormat("issue #%d: %s", issue.number, issue.title));
    absl::StatusOr<IssueOutcome> outcome = ProcessIssue(context, issue);
    if (!outcome.ok()) {
      // One issue's trouble (a missing test command, a refused push) does not stop the others.
      output.Say(absl::StrFormat("#%d: error: %s", issue.number, outcome.status().message()));
      if (status == kExitFound) status = ExitStatusFor(outcome.status());
    }
  }
  if (cancel->load()) {
    output.Progress("interrupted");
    return 128 + (InterruptSignal() ? InterruptSignal() : 2);
  }
  return status;
}

}  // namespace

void AddBotCommand(CLI::App& app, int* exit_status) {
  auto f = std::make_shared<BotFlags>();
  CLI::App* bot = app.add_subcommand("bot",
                                     "Repair GitHub issues and open one suggested-fix pull request "
                                     "each (token from GITHUB_TOKEN)");
  bot->add_option("--github", f->github, "The repository, OWNER/NAME")->required();
  bot->add_option("--issue", f->issue, "Repair this issue");
  bot->add_option("--label", f->label, "Repair every open issue with this label, each once");
  bot->add_option("--limit", f->limit, "Issues per run with --label (default 10)");
  bot->add_option(
      "--api", f->api,
      "REST API base (default https://api.github.com; GitHub Enterprise: https://HOST/api/v3)");
  bot->add_flag("--dry-run", f->dry_run,
                "Print what would be pushed and posted; push and post nothing");
  bot->add_flag("--quiet-on-failure", f->quiet_on_failure,
                "Post nothing when there is no plausible patch");
  bot->add_option("--checkout", f->checkout,
                  "Keep the clone here and reuse it on later runs (a directory the bot owns; "
                  "default: a temporary one)");
  bot->add_option("--author-name", f->author_name,
                  "Author and committer name of the fix commits (default smallfix)");
  bot->add_option("--author-email", f->author_email,
                  "Author and committer email (default smallfix@users.noreply.github.com); commits "
                  "on the branch by "
                  "anyone else keep the bot from overwriting it");
  bot->add_option("--pr-label", f->pull_labels,
                  "Add this label to pull requests the bot opens; repeatable");
  bot->add_option("--max-wait", f->max_wait,
                  "Longest rate-limit wait in seconds before giving up (default 300)");
  bot->add_option("--templates", f->repair.templates,
                  "Template directory (default: the installed templates/)");
  bot->add_option("--timeout", f->repair.timeout,
                  "Seconds per validation stage (default: .smallfix.yaml, else 300)")
      ->check(CLI::PositiveNumber);
  bot->add_option("--test", f->repair.tests,
                  "The failing test command; more --test: tests that must keep passing (default: "
                  ".smallfix.yaml's test: and tests:)");
  bot->add_option("--jobs", f->repair.jobs, "Candidates validated at once (default 1)");
  bot->add_option(
      "--python", f->repair.python,
      "Interpreter for tests (default: .smallfix.yaml, else the first python3 on PATH)");
  AddSandboxFlags(*bot, f->repair);
  AddLlmFlags(*bot, f->repair.llm,
              "Also rank the candidates with the model at this OpenAI-compatible server (off "
              "unless given; it is shown the issue's text)",
              "Also ask the model for up to N edits of its own (off unless given; a pull request "
              "with one says which lines it wrote)");
  bot->add_flag("-q,--quiet", f->quiet, "No progress on stderr");
  bot->add_flag("--cold", f->repair.cold,
                "A fresh interpreter for every test run (default: a warm server per repair)");
  bot->callback([f, exit_status] { *exit_status = Run(*f); });
}

}  // namespace smallfix::cli
