// smallfix bot: repairs GitHub issues and opens (or updates) one suggested-fix pull request
// per issue, or comments once when there is no plausible patch.
#include <iostream>
#include <memory>

#include "absl/strings/str_replace.h"
#include "engine/bot/bot_run.h"
#include "engine/cli/commands.h"
#include "engine/cli/interrupts.h"
#include "engine/cli/llm_flags.h"
#include "engine/cli/sandbox_flags.h"
#include "engine/forge/github_client.h"

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
  RepairInputs repair;
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
  if (absl::Status llm = CheckLlmFlags(flags.repair.llm); !llm.ok()) return Fail(output, llm);
  BotRunOptions options;
  options.repository = flags.github;
  options.api = flags.api;
  options.token = output.token;
  options.max_wait_seconds = flags.max_wait;
  options.issue = flags.issue;
  options.label = flags.label;
  options.limit = flags.limit;
  options.checkout = flags.checkout;
  options.identity = {flags.author_name, flags.author_email};
  options.repair = flags.repair;
  options.pull_labels = flags.pull_labels;
  options.dry_run = flags.dry_run;
  options.quiet_on_failure = flags.quiet_on_failure;
  options.engine_version = SMALLFIX_VERSION;
  options.cancel = cancel;
  options.say = [&output](const std::string& line) { output.Say(line); };
  options.progress = [&output](const std::string& line) { output.Progress(line); };
  options.quiet = flags.quiet;
  absl::StatusOr<BotRunOutcome> run = RunBot(options);
  // Interrupted (while waiting for the checkout, or repairing): 128+signal, like every command.
  if (cancel->load()) {
    output.Progress("interrupted");
    return 128 + (InterruptSignal() ? InterruptSignal() : 2);
  }
  if (!run.ok()) return Fail(output, run.status());
  return run->first_issue_error.ok() ? kExitFound : ExitStatusFor(run->first_issue_error);
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
