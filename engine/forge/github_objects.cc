#include "engine/forge/github_objects.h"

#include "absl/strings/str_format.h"
#include "engine/base/status_macros.h"

namespace smallfix {
namespace {

// GitHub sends null for an empty body or a deleted user: null reads as "".
std::string Text(const nlohmann::json& json, const char* key) {
  const auto it = json.find(key);
  return it != json.end() && it->is_string() ? it->get<std::string>() : "";
}

absl::Status Require(const nlohmann::json& json, const char* what,
                     std::initializer_list<const char*> keys) {
  if (!json.is_object())
    return absl::InvalidArgumentError(
        absl::StrFormat("GitHub sent %s that is not an object", what));
  for (const char* key : keys) {
    if (!json.contains(key))
      return absl::InvalidArgumentError(
          absl::StrFormat("GitHub sent %s without \"%s\"", what, key));
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> Number(const nlohmann::json& json, const char* what, const char* key) {
  const nlohmann::json& value = json.at(key);
  if (!value.is_number_integer()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("GitHub sent %s whose \"%s\" is not a number", what, key));
  }
  return value.get<int64_t>();
}

std::string Login(const nlohmann::json& json) {
  const auto user = json.find("user");
  return user != json.end() && user->is_object() ? Text(*user, "login") : "";
}

}  // namespace

absl::StatusOr<GitHubRepository> RepositoryFromJson(const nlohmann::json& json) {
  SMALLFIX_RETURN_IF_ERROR(
      Require(json, "a repository", {"full_name", "default_branch", "clone_url"}));
  return GitHubRepository{Text(json, "full_name"), Text(json, "default_branch"),
                          Text(json, "clone_url"), Text(json, "html_url")};
}

absl::StatusOr<GitHubIssue> IssueFromJson(const nlohmann::json& json) {
  SMALLFIX_RETURN_IF_ERROR(Require(json, "an issue", {"number", "title", "state"}));
  absl::StatusOr<int64_t> number = Number(json, "an issue", "number");
  if (!number.ok()) return number.status();
  GitHubIssue issue;
  issue.number = static_cast<int>(*number);
  issue.title = Text(json, "title");
  issue.body = Text(json, "body");
  issue.state = Text(json, "state");
  issue.author = Login(json);
  issue.html_url = Text(json, "html_url");
  issue.is_pull_request = json.contains("pull_request") && !json["pull_request"].is_null();
  if (const auto labels = json.find("labels"); labels != json.end() && labels->is_array()) {
    for (const nlohmann::json& label : *labels) {
      // Labels come as objects ({"name": ...}) and, in some payloads, as plain names.
      if (label.is_string())
        issue.labels.push_back(label.get<std::string>());
      else if (label.is_object())
        issue.labels.push_back(Text(label, "name"));
    }
  }
  return issue;
}

absl::StatusOr<GitHubComment> CommentFromJson(const nlohmann::json& json) {
  SMALLFIX_RETURN_IF_ERROR(Require(json, "a comment", {"id", "body"}));
  SMALLFIX_ASSIGN_OR_RETURN(int64_t id, Number(json, "a comment", "id"));
  return GitHubComment{id, Text(json, "body"), Login(json), Text(json, "created_at")};
}

absl::StatusOr<GitHubPullRequest> PullRequestFromJson(const nlohmann::json& json) {
  SMALLFIX_RETURN_IF_ERROR(Require(json, "a pull request", {"number", "state", "head"}));
  absl::StatusOr<int64_t> number = Number(json, "a pull request", "number");
  if (!number.ok()) return number.status();
  GitHubPullRequest pull;
  pull.number = static_cast<int>(*number);
  pull.state = Text(json, "state");
  // The list endpoint has no "merged"; "merged_at" is in both.
  pull.merged =
      (json.contains("merged") && json["merged"].is_boolean() && json["merged"].get<bool>()) ||
      !Text(json, "merged_at").empty();
  pull.title = Text(json, "title");
  pull.body = Text(json, "body");
  pull.html_url = Text(json, "html_url");
  if (json["head"].is_object()) {
    pull.head_ref = Text(json["head"], "ref");
    pull.head_sha = Text(json["head"], "sha");
  }
  if (const auto base = json.find("base"); base != json.end() && base->is_object())
    pull.base_ref = Text(*base, "ref");
  return pull;
}

}  // namespace smallfix
