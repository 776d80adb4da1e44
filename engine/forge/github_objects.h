#ifndef SMALLFIX_ENGINE_FORGE_GITHUB_OBJECTS_H_
#define SMALLFIX_ENGINE_FORGE_GITHUB_OBJECTS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace smallfix {

// The fields of GitHub's REST objects that smallfix reads; the rest is ignored.

struct GitHubRepository {
  std::string full_name;  // "owner/name"
  std::string default_branch;
  std::string clone_url;  // any URL git understands: https://, file://, ...
  std::string html_url;
};

struct GitHubIssue {
  int number = 0;
  std::string title;
  std::string body;
  std::string state;  // open | closed
  std::string author;
  std::string html_url;
  std::vector<std::string> labels;
  bool is_pull_request = false;  // the issues endpoints list pull requests too
};

struct GitHubComment {
  int64_t id = 0;
  std::string body;
  std::string author;
  std::string created_at;
};

struct GitHubPullRequest {
  int number = 0;
  std::string state;  // open | closed
  bool merged = false;
  std::string title;
  std::string body;
  std::string html_url;
  std::string head_ref;  // the branch, "smallfix/issue-7"
  std::string head_sha;
  std::string base_ref;
};

// Each reads one object; an error names the field that is missing or of the wrong type.
absl::StatusOr<GitHubRepository> RepositoryFromJson(const nlohmann::json& json);
absl::StatusOr<GitHubIssue> IssueFromJson(const nlohmann::json& json);
absl::StatusOr<GitHubComment> CommentFromJson(const nlohmann::json& json);
absl::StatusOr<GitHubPullRequest> PullRequestFromJson(const nlohmann::json& json);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_FORGE_GITHUB_OBJECTS_H_
