#include "engine/forge/issue_link.h"

#include <filesystem>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/forge/issue_text.h"

namespace smallfix {
namespace {

constexpr char kForms[] =
    "expected OWNER/NAME#NUMBER, https://github.com/OWNER/NAME/issues/NUMBER or a file";

absl::Status Malformed(std::string_view text, std::string_view why) {
  return absl::InvalidArgumentError(Concat("--issue ", text, ": ", why, "; ", kForms));
}

// A positive issue number written in digits alone.
std::optional<int> IssueNumber(std::string_view digits) {
  int number = 0;
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos ||
      !absl::SimpleAtoi(std::string(digits), &number) || number < 1) {
    return std::nullopt;
  }
  return number;
}

// https://HOST[:PORT]/OWNER/NAME/issues/N, with an optional trailing slash, query or fragment
// (a link to one comment is a link to its issue).
absl::StatusOr<IssueLink> ParseUrl(std::string_view text) {
  const size_t scheme_end = text.find("://");
  const std::string scheme = absl::AsciiStrToLower(std::string(text.substr(0, scheme_end)));
  std::string_view rest = text.substr(scheme_end + 3);
  rest = rest.substr(0, rest.find_first_of("?#"));
  const size_t slash = rest.find('/');
  const std::string_view host = rest.substr(0, slash);
  if (host.empty() || slash == std::string_view::npos) return Malformed(text, "no host and path");
  if (host.find('@') != std::string_view::npos) {
    return Malformed(text, "no credentials in the link; put the token in GITHUB_TOKEN");
  }
  std::vector<std::string_view> parts;
  for (std::string_view path = rest.substr(slash + 1);;) {
    const size_t next = path.find('/');
    parts.push_back(path.substr(0, next));
    if (next == std::string_view::npos) break;
    path.remove_prefix(next + 1);
  }
  if (!parts.empty() && parts.back().empty()) parts.pop_back();
  if (parts.size() != 4 || parts[2] != "issues") {
    return Malformed(text, parts.size() == 4 && parts[2] == "pull" ? "a pull request, not an issue"
                                                                   : "not a link to one issue");
  }
  IssueLink link;
  link.repository = Concat(parts[0], "/", parts[1]);
  if (!CheckRepositoryName(link.repository).ok())
    return Malformed(text, Concat("bad repository name ", link.repository));
  std::optional<int> number = IssueNumber(parts[3]);
  if (!number) return Malformed(text, Concat("bad issue number ", parts[3]));
  link.number = *number;
  const std::string lower_host = absl::AsciiStrToLower(std::string(host));
  link.api = lower_host == "github.com" || lower_host == "www.github.com"
                 ? std::string(kGitHubApi)
                 : Concat(scheme, "://", host, "/api/v3");
  return link;
}

// The client's error with the issue's name first and, for the two common causes, what to do.
absl::Status Explained(std::string_view name, const absl::Status& status,
                       const GitHubClient& client, const GitHubOptions& options) {
  std::string hint;
  if (status.code() == absl::StatusCode::kNotFound) {
    hint = options.token.empty()
               ? Concat("; no such issue at ", client.api(),
                        ", or a private repository (set GITHUB_TOKEN)")
               : Concat("; no such issue at ", client.api(), " that the token can read");
  } else if (status.code() == absl::StatusCode::kUnavailable ||
             status.code() == absl::StatusCode::kDeadlineExceeded) {
    hint = "; is the server reachable? (GitHub Enterprise: --api https://HOST/api/v3)";
  }
  return absl::Status(status.code(), Concat(name, ": ", status.message(), hint));
}

}  // namespace

absl::StatusOr<std::optional<IssueLink>> ParseIssueLink(std::string_view text) {
  const std::string lower = absl::AsciiStrToLower(std::string(text.substr(0, 8)));
  if (absl::StartsWith(lower, "http://") || absl::StartsWith(lower, "https://")) {
    absl::StatusOr<IssueLink> link = ParseUrl(text);
    if (!link.ok()) return link.status();
    return std::optional<IssueLink>(*std::move(link));
  }
  std::error_code error;
  if (std::filesystem::exists(std::string(text), error)) return std::optional<IssueLink>();
  const size_t hash = text.rfind('#');
  if (hash == std::string_view::npos) return std::optional<IssueLink>();
  // OWNER/NAME#N; with no such file, text with a '#' was meant as a link.
  IssueLink link{std::string(text.substr(0, hash)), 0, kGitHubApi};
  if (!CheckRepositoryName(link.repository).ok())
    return Malformed(text, "no such file, and no OWNER/NAME before the '#'");
  std::optional<int> number = IssueNumber(text.substr(hash + 1));
  if (!number) return Malformed(text, "no such file, and no issue number after the '#'");
  link.number = *number;
  return std::optional<IssueLink>(std::move(link));
}

absl::StatusOr<std::string> ReadLinkedIssue(const IssueLink& link, GitHubOptions options) {
  if (options.api.empty()) options.api = link.api;
  const std::string name = absl::StrFormat("--issue %s#%d", link.repository, link.number);
  absl::StatusOr<GitHubClient> client = GitHubClient::Create(options, link.repository);
  if (!client.ok())
    return absl::InvalidArgumentError(Concat(name, ": ", client.status().message()));
  absl::StatusOr<GitHubIssue> issue = client->GetIssue(link.number);
  if (!issue.ok()) return Explained(name, issue.status(), *client, options);
  absl::StatusOr<std::vector<GitHubComment>> comments = client->ListIssueComments(link.number);
  if (!comments.ok()) return Explained(name, comments.status(), *client, options);
  return IssueFailureText(*issue, *comments);
}

}  // namespace smallfix
