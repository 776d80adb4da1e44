#ifndef SMALLFIX_ENGINE_FORGE_ISSUE_LINK_H_
#define SMALLFIX_ENGINE_FORGE_ISSUE_LINK_H_

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "engine/forge/github_client.h"

namespace smallfix {

// An issue named by a link: https://github.com/OWNER/NAME/issues/N, the same on a GitHub
// Enterprise host, or OWNER/NAME#N.
struct IssueLink {
  std::string repository;  // "owner/name"
  int number = 0;
  // The REST API the link implies: https://api.github.com for github.com and OWNER/NAME#N,
  // https://HOST/api/v3 for another host (GitHub Enterprise's layout).
  std::string api;
};

// Reads what `--issue` holds. A URL must be an issue's; text of the form OWNER/NAME#N is a link
// unless a file of that name exists; anything else is a file path (nullopt). Errors name the
// text and the forms accepted.
absl::StatusOr<std::optional<IssueLink>> ParseIssueLink(std::string_view text);

// The issue's failure text (IssueFailureText: title, body, comments) read through the GitHub
// client the bot uses; `options.api` empty means the link's. The token is optional (public
// repositories need none). Errors name the issue and what went wrong.
absl::StatusOr<std::string> ReadLinkedIssue(const IssueLink& link, GitHubOptions options);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_FORGE_ISSUE_LINK_H_
