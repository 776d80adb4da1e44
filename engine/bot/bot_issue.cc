#include "engine/bot/bot_issue.h"

#include <optional>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/forge/issue_text.h"
#include "engine/repair/model_lines.h"
#include "engine/repair/pull_request_text.h"

namespace smallfix {
namespace {

std::string CommitMessage(int number, const ValidatedCandidate& fix) {
  const std::string author = WrittenByModel(fix.scored.candidate)
                                 ? "Written by a language model (not a template)"
                                 : Concat("Template ", fix.scored.candidate.template_id);
  return absl::StrFormat(
      "%s\n\n%s at %s:%d, validated by smallfix against the repository's tests.\n\n"
      "Fixes #%d\n",
      PullRequestTitle(number, fix), author, fix.scored.candidate.file, fix.scored.candidate.line,
      number);
}

absl::StatusOr<IssueOutcome> NoPatch(const BotContext& context, const GitHubIssue& issue,
                                     const std::vector<GitHubComment>& comments,
                                     const RepairReport& report, const ValidationPlan& plan,
                                     std::string_view problem = "") {
  const std::string prefix = problem.empty()
                                 ? absl::StrFormat("#%d: no plausible patch", issue.number)
                                 : absl::StrFormat("#%d: not repaired (%s)", issue.number, problem);
  if (context.quiet_on_failure) {
    context.say(Concat(prefix, "; nothing posted (--quiet-on-failure)"));
    return IssueOutcome::kNothingToDo;
  }
  const std::string marker = NoPatchMarker(issue.number, context.engine_version);
  for (const GitHubComment& comment : comments) {
    if (comment.body.find(marker) != std::string::npos) {
      context.say(
          Concat(prefix, "; already said so on the issue for smallfix ", context.engine_version));
      return IssueOutcome::kNothingToDo;
    }
  }
  const std::string body =
      NoPatchComment(report, plan, issue.number, context.engine_version, problem);
  if (context.dry_run) {
    context.say(Concat(prefix, "; would comment:\n", body));
    return IssueOutcome::kCommented;
  }
  absl::StatusOr<GitHubComment> posted = context.github->AddIssueComment(issue.number, body);
  if (!posted.ok()) return posted.status();
  context.say(Concat(prefix, "; commented on the issue with what was tried"));
  return IssueOutcome::kCommented;
}

// What is there already for the issue's branch: its open pull request (none: nullopt), whether
// the branch exists, and whether the bot must leave it alone: a closed pull request already had
// this very patch (a maintainer's decision, or a merge, stands) or the branch holds commits by
// someone else (both said).
struct BranchState {
  std::optional<GitHubPullRequest> open;
  bool exists = false;
  bool leave_alone = false;
};

absl::StatusOr<BranchState> StateOf(const BotContext& context, int number,
                                    const std::string& branch, const std::string& marker) {
  const std::string base_ref = Concat("refs/remotes/origin/", context.repository.default_branch);
  const std::string remote_ref = Concat("refs/remotes/origin/", branch);
  absl::StatusOr<std::vector<GitHubPullRequest>> pulls = context.github->ListPullsByHead(branch);
  if (!pulls.ok()) return pulls.status();
  BranchState state;
  for (const GitHubPullRequest& pull : *pulls) {
    if (pull.state == "open") state.open = pull;
  }
  for (const GitHubPullRequest& pull : *pulls) {
    if (state.open || pull.body.find(marker) == std::string::npos) continue;
    context.say(
        absl::StrFormat("#%d: pull request #%d with this patch was %s; not opening it again",
                        number, pull.number, pull.merged ? "merged" : "closed"));
    state.leave_alone = true;
    return state;
  }
  state.exists = RefExists(context.checkout, remote_ref);
  if (!state.exists) return state;
  absl::StatusOr<std::vector<std::string>> others =
      OtherPeoplesCommits(context.checkout, remote_ref, base_ref, context.identity.email);
  if (!others.ok()) return others.status();
  if (!others->empty()) {
    std::string who;
    for (const std::string& person : *others) who += Concat(who.empty() ? "" : ", ", person);
    context.say(absl::StrFormat("#%d: branch %s has commits by %s; not overwriting it", number,
                                branch, who));
    state.leave_alone = true;
  }
  return state;
}

// --dry-run: what would be pushed and posted.
IssueOutcome SayWhatWouldHappen(const BotContext& context, int number, const std::string& branch,
                                const std::string& commit, bool up_to_date,
                                const BranchState& state, const std::string& title,
                                const std::string& body) {
  context.say(up_to_date
                  ? absl::StrFormat("#%d: branch %s already holds this patch; would not push",
                                    number, branch)
                  : absl::StrFormat("#%d: would push commit %s to branch %s of %s (forced)", number,
                                    commit.substr(0, 12), branch, context.repository.clone_url));
  context.say(absl::StrFormat(
      "#%d: would %s pull request: %s\n%s", number,
      state.open ? absl::StrFormat("update #%d,", state.open->number) : "open a", title, body));
  return state.open ? IssueOutcome::kPullUpdated : IssueOutcome::kPullOpened;
}

// Updates the open pull request, or opens one (and labels it).
absl::StatusOr<IssueOutcome> UpdateOrOpen(const BotContext& context, int number,
                                          const std::string& branch, const BranchState& state,
                                          bool up_to_date, const std::string& title,
                                          const std::string& body) {
  if (state.open) {
    absl::StatusOr<GitHubPullRequest> updated =
        context.github->UpdatePull(state.open->number, title, body);
    if (!updated.ok()) return updated.status();
    context.say(absl::StrFormat(
        "#%d: updated pull request #%d%s %s", number, state.open->number,
        up_to_date ? " (the branch already held this patch)" : " (branch force-pushed)",
        updated->html_url));
    return IssueOutcome::kPullUpdated;
  }
  absl::StatusOr<GitHubPullRequest> created =
      context.github->CreatePull(title, branch, context.repository.default_branch, body);
  if (!created.ok()) return created.status();
  if (!context.pull_labels.empty()) {
    if (absl::Status labelled = context.github->AddLabels(created->number, context.pull_labels);
        !labelled.ok()) {
      context.say(absl::StrFormat("#%d: could not label pull request #%d: %s", number,
                                  created->number, labelled.message()));
    }
  }
  context.say(absl::StrFormat("#%d: opened pull request #%d %s", number, created->number,
                              created->html_url));
  return IssueOutcome::kPullOpened;
}

absl::StatusOr<IssueOutcome> Propose(const BotContext& context, const GitHubIssue& issue,
                                     const RepairReport& report, const ValidatedCandidate& fix,
                                     const ValidationPlan& plan) {
  const std::string branch = BotBranch(issue.number);
  const std::string base_ref = Concat("refs/remotes/origin/", context.repository.default_branch);
  const std::string remote_ref = Concat("refs/remotes/origin/", branch);
  absl::StatusOr<BranchState> state =
      StateOf(context, issue.number, branch, PatchMarker(PatchId(fix)));
  if (!state.ok()) return state.status();
  if (state->leave_alone) return IssueOutcome::kLeftAlone;
  absl::StatusOr<std::string> commit =
      CommitChanges(context.checkout, base_ref, branch, fix.scored.candidate.changes,
                    context.identity, CommitMessage(issue.number, fix));
  if (!commit.ok()) return commit.status();
  bool up_to_date = false;
  if (state->exists) {
    absl::StatusOr<bool> same =
        SameChange(context.checkout, Concat("refs/heads/", branch), remote_ref);
    if (!same.ok()) return same.status();
    up_to_date = *same;
  }
  const std::string title = PullRequestTitle(issue.number, fix);
  const std::string body = PullRequestBody(report, fix, plan, issue.number, context.engine_version);
  if (context.dry_run) {
    return SayWhatWouldHappen(context, issue.number, branch, *commit, up_to_date, *state, title,
                              body);
  }
  if (!up_to_date) {
    absl::Status pushed = PushBranch(context.checkout, context.repository.clone_url, branch,
                                     context.repository.default_branch, context.auth);
    if (!pushed.ok()) return pushed;
  }
  return UpdateOrOpen(context, issue.number, branch, *state, up_to_date, title, body);
}

}  // namespace

std::string BotBranch(int number) { return absl::StrFormat("smallfix/issue-%d", number); }

absl::StatusOr<IssueOutcome> ProcessIssue(const BotContext& context, const GitHubIssue& issue) {
  if (issue.is_pull_request || issue.state != "open") {
    context.say(
        absl::StrFormat("#%d: %s; skipped", issue.number,
                        issue.is_pull_request ? "a pull request, not an issue" : "not open"));
    return IssueOutcome::kSkipped;
  }
  absl::StatusOr<std::vector<GitHubComment>> comments =
      context.github->ListIssueComments(issue.number);
  if (!comments.ok()) return comments.status();
  // Repairs start from the default branch as it is now.
  const std::string base_ref = Concat("refs/remotes/origin/", context.repository.default_branch);
  if (absl::Status checkout = CheckoutDetached(context.checkout, base_ref); !checkout.ok())
    return checkout;
  RepairInputs inputs = context.repair;
  inputs.repo = context.checkout;
  inputs.failure_text = IssueFailureText(issue, *comments);
  inputs.failure_kind = FailureKind::kIssue;
  absl::StatusOr<RepairRequest> request = BuildRepairRequest(inputs, context.cancel);
  if (!request.ok()) return request.status();
  request->progress = context.progress;
  absl::StatusOr<RepairReport> report = RunRepair(*request);
  // Bad input here is the issue's (no traceback to read) or the repository's (no test
  // command): said once on the issue, where someone can act on it.
  if (report.status().code() == absl::StatusCode::kInvalidArgument) {
    return NoPatch(context, issue, *comments, RepairReport(), request->plan,
                   std::string(report.status().message()));
  }
  if (!report.ok()) return report.status();
  if (report->cancelled) return absl::CancelledError("interrupted");
  const ValidatedCandidate* best = BestCandidate(*report, /*validated=*/true);
  if (best == nullptr) return NoPatch(context, issue, *comments, *report, request->plan);
  return Propose(context, issue, *report, *best, request->plan);
}

}  // namespace smallfix
