#ifndef SMALLFIX_ENGINE_FORGE_GITHUB_CLIENT_H_
#define SMALLFIX_ENGINE_FORGE_GITHUB_CLIENT_H_

#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/base/http_exchange.h"
#include "engine/forge/github_objects.h"

namespace smallfix {

inline constexpr char kGitHubApi[] = "https://api.github.com";

struct GitHubOptions {
  // The REST API's base: https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise.
  std::string api = kGitHubApi;
  // Sent as "Authorization: Bearer ..." and nowhere else; scrubbed from every error message.
  std::string token;
  double timeout_seconds = 30;  // per request
  // A rate-limited answer is waited out when GitHub asks for at most this long; a longer wait
  // ends the run with a message that says how long it would have been.
  double max_wait_seconds = 300;
  int max_attempts = 5;  // per request, rate-limit waits and 5xx retries included
  int max_pages = 50;    // per list (100 items a page)
  const std::atomic<bool>* cancel = nullptr;
  std::function<void(const std::string&)> progress;  // a line per wait
};

// The token from SMALLFIX_GITHUB_TOKEN, else GITHUB_TOKEN; "" when neither is set.
std::string GitHubTokenFromEnvironment();

// "owner/name" checked: two non-empty parts of letters, digits, '-', '_' and '.'.
absl::Status CheckRepositoryName(std::string_view full_name);

// The REST endpoints of one repository that the bot uses, over libcurl (HttpExchange).
// Lists follow Link headers to the end. Rate limits are waited out (RateLimitFor) within
// the options' bounds; 502/503/504 are retried with a short backoff.
class GitHubClient {
 public:
  // `full_name` is "owner/name"; an error for a bad name or API URL.
  static absl::StatusOr<GitHubClient> Create(GitHubOptions options, std::string_view full_name);

  const std::string& owner() const { return owner_; }
  const std::string& full_name() const { return full_name_; }
  const std::string& api() const { return options_.api; }
  int requests() const { return requests_; }

  absl::StatusOr<GitHubRepository> GetRepository();
  absl::StatusOr<GitHubIssue> GetIssue(int number);
  absl::StatusOr<std::vector<GitHubComment>> ListIssueComments(int number);
  // Open issues with `label`, oldest first; pull requests are left out.
  absl::StatusOr<std::vector<GitHubIssue>> ListOpenIssuesWithLabel(std::string_view label);
  absl::StatusOr<GitHubComment> AddIssueComment(int number, std::string_view body);
  absl::Status AddLabels(int number, const std::vector<std::string>& labels);
  // Pull requests of any state whose head is `branch` of this repository.
  absl::StatusOr<std::vector<GitHubPullRequest>> ListPullsByHead(std::string_view branch);
  absl::StatusOr<GitHubPullRequest> CreatePull(std::string_view title, std::string_view head,
                                               std::string_view base, std::string_view body);
  absl::StatusOr<GitHubPullRequest> UpdatePull(int number, std::string_view title,
                                               std::string_view body);

 private:
  GitHubClient(GitHubOptions options, std::string owner, std::string name);

  std::string RepoPath(std::string_view rest) const;  // "/repos/owner/name" + rest
  // One request with waits and retries; the parsed JSON of a 2xx answer, else an error.
  absl::StatusOr<nlohmann::json> Call(const std::string& method, const std::string& url,
                                      const nlohmann::json* body, std::string* next_page);
  absl::StatusOr<std::vector<nlohmann::json>> CallList(const std::string& path);
  std::string Scrub(std::string text) const;

  GitHubOptions options_;
  std::string owner_, name_, full_name_;
  int requests_ = 0;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_FORGE_GITHUB_CLIENT_H_
