#include "engine/forge/github_objects.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace smallfix {
namespace {

using ::testing::HasSubstr;

TEST(GitHubObjects, PullRequestFromEitherEndpoint) {
  // The list endpoint has merged_at and no "merged"; a single pull request has both.
  absl::StatusOr<GitHubPullRequest> listed = PullRequestFromJson(nlohmann::json::parse(
      R"({"number": 9, "state": "closed", "merged_at": "2026-01-01T00:00:00Z", "title": "t", "body": null,
          "head": {"ref": "smallfix/issue-3", "sha": "abc"}, "base": {"ref": "main"}})"));
  ASSERT_TRUE(listed.ok()) << listed.status();
  EXPECT_TRUE(listed->merged);
  EXPECT_EQ(listed->body, "");
  EXPECT_EQ(listed->head_ref, "smallfix/issue-3");
  EXPECT_EQ(listed->base_ref, "main");
  absl::StatusOr<GitHubPullRequest> closed = PullRequestFromJson(nlohmann::json::parse(
      R"({"number": 9, "state": "closed", "merged": false, "merged_at": null, "head": {"ref": "x"}})"));
  ASSERT_TRUE(closed.ok()) << closed.status();
  EXPECT_FALSE(closed->merged);
}

TEST(GitHubObjects, IssueMarksPullRequestsAndReadsLabels) {
  absl::StatusOr<GitHubIssue> issue = IssueFromJson(nlohmann::json::parse(
      R"({"number": 4, "title": "t", "state": "open", "body": "b", "user": {"login": "amy"},
          "labels": [{"name": "smallfix"}, "bug"], "pull_request": {"url": "u"}})"));
  ASSERT_TRUE(issue.ok()) << issue.status();
  EXPECT_TRUE(issue->is_pull_request);
  EXPECT_EQ(issue->author, "amy");
  EXPECT_THAT(issue->labels, ::testing::ElementsAre("smallfix", "bug"));
}

TEST(GitHubObjects, MissingOrWrongFieldsAreNamed) {
  EXPECT_THAT(IssueFromJson(nlohmann::json::parse(R"({"title": "t", "state": "open"})")).status().message(),
              HasSubstr("issue without \"number\""));
  EXPECT_THAT(IssueFromJson(nlohmann::json::parse(R"({"number": "4", "title": "t", "state": "open"})")).status().message(),
              HasSubstr("\"number\" is not a number"));
  EXPECT_THAT(RepositoryFromJson(nlohmann::json::parse(R"({"full_name": "a/b"})")).status().message(),
              HasSubstr("repository without \"default_branch\""));
  EXPECT_FALSE(CommentFromJson(nlohmann::json::array()).ok());
}

}  // namespace
}  // namespace smallfix
