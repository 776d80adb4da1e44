// The GitHub client against tests/forge/fake_github.py: real HTTP on loopback, every request
// recorded by the server.
#include "engine/forge/github_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

#include "tests/forge/fake_github_server.h"

namespace smallfix {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::FakeGitHubServer;

constexpr char kToken[] = "ghs_forgeTEST0123456789secret";

nlohmann::json Seed() {
  nlohmann::json comments = nlohmann::json::array();
  for (int i = 1; i <= 5; ++i) comments.push_back({{"body", "comment " + std::to_string(i)}, {"user", "u"}});
  return {{"prefix", "/api/v3"},
          {"page_size", 2},
          {"repos", {{"acme/train", {{"default_branch", "trunk"}, {"clone_url", "file:///nowhere/train.git"}}}}},
          {"issues",
           {{"acme/train",
             {{{"number", 1}, {"title", "crash"}, {"body", "Traceback"}, {"labels", {"smallfix"}}},
              {{"number", 2}, {"title", "other"}, {"body", nullptr}, {"labels", {"question"}}},
              {{"number", 3}, {"title", "closed"}, {"body", "x"}, {"labels", {"smallfix"}}, {"state", "closed"}},
              {{"number", 4}, {"title", "second"}, {"body", "y"}, {"labels", {"smallfix", "bug"}}}}}}},
          {"comments", {{"acme/train#1", comments}}}};
}

GitHubClient Client(const FakeGitHubServer& server, double max_wait = 30) {
  GitHubOptions options;
  options.api = server.url() + "/api/v3/";  // a GitHub Enterprise base, with a trailing slash
  options.token = kToken;
  options.max_wait_seconds = max_wait;
  absl::StatusOr<GitHubClient> client = GitHubClient::Create(options, "acme/train");
  EXPECT_TRUE(client.ok()) << client.status();
  return *std::move(client);
}

void Script(const FakeGitHubServer& server, const nlohmann::json& entries) {
  HttpRequest request;
  request.method = "POST";
  request.url = server.url() + "/_admin/script";
  request.body = entries.dump();
  ASSERT_TRUE(HttpExchange(request).ok());
}

TEST(GitHubClient, ReadsRepositoryAndIssueUnderAnEnterpriseBase) {
  FakeGitHubServer server(Seed());
  ASSERT_TRUE(server.started());
  GitHubClient client = Client(server);
  absl::StatusOr<GitHubRepository> repo = client.GetRepository();
  ASSERT_TRUE(repo.ok()) << repo.status();
  EXPECT_EQ(repo->default_branch, "trunk");
  EXPECT_EQ(repo->clone_url, "file:///nowhere/train.git");
  absl::StatusOr<GitHubIssue> issue = client.GetIssue(2);
  ASSERT_TRUE(issue.ok()) << issue.status();
  EXPECT_EQ(issue->title, "other");
  EXPECT_EQ(issue->body, "");  // null
  EXPECT_THAT(issue->labels, ::testing::ElementsAre("question"));
  const std::vector<nlohmann::json> requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0]["path"], "/api/v3/repos/acme/train");
  for (const nlohmann::json& request : requests) {
    EXPECT_EQ(request["authorization"], std::string("Bearer ") + kToken);
    EXPECT_EQ(request["user_agent"], "smallfix");
  }
}

TEST(GitHubClient, FollowsLinkHeadersThroughEveryPage) {
  FakeGitHubServer server(Seed());
  ASSERT_TRUE(server.started());
  GitHubClient client = Client(server);
  absl::StatusOr<std::vector<GitHubComment>> comments = client.ListIssueComments(1);
  ASSERT_TRUE(comments.ok()) << comments.status();
  ASSERT_EQ(comments->size(), 5u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ((*comments)[i].body, "comment " + std::to_string(i + 1));
  EXPECT_EQ(server.requests().size(), 3u);  // pages of 2, 2 and 1
}

TEST(GitHubClient, FollowsNoPaginationLinkAwayFromTheApi) {
  nlohmann::json seed = Seed();
  seed["link_base"] = "http://127.0.0.2:9";  // another host: the token must not go there
  FakeGitHubServer server(seed);
  ASSERT_TRUE(server.started());
  GitHubClient client = Client(server);
  absl::StatusOr<std::vector<GitHubComment>> comments = client.ListIssueComments(1);
  ASSERT_FALSE(comments.ok());
  EXPECT_THAT(comments.status().message(), HasSubstr("a pagination link leaves"));
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(GitHubClient, ListsOpenLabelledIssuesWithoutPullRequests) {
  FakeGitHubServer server(Seed());
  ASSERT_TRUE(server.started());
  GitHubClient client = Client(server);
  ASSERT_TRUE(client.CreatePull("Fix", "acme:smallfix/issue-1", "trunk", "body").ok());
  ASSERT_TRUE(client.AddLabels(5, {"smallfix"}).ok());  // the new pull request, labelled like the issues
  absl::StatusOr<std::vector<GitHubIssue>> issues = client.ListOpenIssuesWithLabel("smallfix");
  ASSERT_TRUE(issues.ok()) << issues.status();
  std::vector<int> numbers;
  for (const GitHubIssue& issue : *issues) numbers.push_back(issue.number);
  EXPECT_THAT(numbers, ::testing::ElementsAre(1, 4));
}

TEST(GitHubClient, CreatesFindsAndUpdatesOnePullRequestPerHead) {
  FakeGitHubServer server(Seed());
  ASSERT_TRUE(server.started());
  GitHubClient client = Client(server);
  absl::StatusOr<std::vector<GitHubPullRequest>> none = client.ListPullsByHead("smallfix/issue-1");
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->empty());
  absl::StatusOr<GitHubPullRequest> created = client.CreatePull("Fix #1", "smallfix/issue-1", "trunk", "first");
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(created->state, "open");
  // GitHub refuses a second open pull request for the same head; its message comes through.
  absl::StatusOr<GitHubPullRequest> again = client.CreatePull("Fix #1", "smallfix/issue-1", "trunk", "second");
  ASSERT_FALSE(again.ok());
  EXPECT_THAT(again.status().message(), HasSubstr("HTTP 422"));
  EXPECT_THAT(again.status().message(), HasSubstr("A pull request already exists"));
  absl::StatusOr<GitHubPullRequest> updated = client.UpdatePull(created->number, "Fix #1: better", "new body");
  ASSERT_TRUE(updated.ok()) << updated.status();
  absl::StatusOr<std::vector<GitHubPullRequest>> found = client.ListPullsByHead("smallfix/issue-1");
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_EQ(found->size(), 1u);
  EXPECT_EQ((*found)[0].title, "Fix #1: better");
  EXPECT_EQ((*found)[0].body, "new body");
  EXPECT_EQ((*found)[0].head_ref, "smallfix/issue-1");
  const std::vector<nlohmann::json> requests = server.requests();
  EXPECT_EQ(requests.back()["query"], "state=all&per_page=100&head=acme%3Asmallfix%2Fissue-1");
  EXPECT_EQ(requests[requests.size() - 2]["method"], "PATCH");
}

TEST(GitHubClient, WaitsOutAnExhaustedRateLimitAndRetryAfter) {
  FakeGitHubServer server(Seed());
  ASSERT_TRUE(server.started());
  Script(server, {{{"method", "GET"}, {"path", "/repos/acme/train/issues/1"}, {"status", 403}, {"reset_in", 1},
                   {"headers", {{"X-RateLimit-Remaining", "0"}}},
                   {"body", {{"message", "API rate limit exceeded"}}}},
                  {{"method", "POST"}, {"path", "/repos/acme/train/issues/1/comments"}, {"status", 429},
                   {"headers", {{"Retry-After", "1"}}}}});
  GitHubClient client = Client(server);
  std::vector<std::string> notes;
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<GitHubIssue> issue = client.GetIssue(1);
  ASSERT_TRUE(issue.ok()) << issue.status();
  absl::StatusOr<GitHubComment> comment = client.AddIssueComment(1, "hello");
  ASSERT_TRUE(comment.ok()) << comment.status();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(seconds, 2.0);  // at least a second for each
  const std::vector<nlohmann::json> requests = server.requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_GE(requests[1]["time"].get<double>() - requests[0]["time"].get<double>(), 1.0);
  EXPECT_GE(requests[3]["time"].get<double>() - requests[2]["time"].get<double>(), 0.9);
  EXPECT_EQ(requests[3]["body"]["body"], "hello");
}

TEST(GitHubClient, GivesUpOnAWaitLongerThanItsBound) {
  FakeGitHubServer server(Seed());
  ASSERT_TRUE(server.started());
  Script(server, {{{"method", "GET"}, {"path", "/repos/acme/train"}, {"status", 403}, {"reset_in", 3600},
                   {"headers", {{"X-RateLimit-Remaining", "0"}}}}});
  GitHubClient client = Client(server, /*max_wait=*/5);
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<GitHubRepository> repo = client.GetRepository();
  ASSERT_FALSE(repo.ok());
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
  EXPECT_THAT(repo.status().message(), HasSubstr("rate limited"));
  EXPECT_THAT(repo.status().message(), HasSubstr("longer than the 5 s smallfix waits"));
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(GitHubClient, APermissionErrorIsNotRetriedAndKeepsTheTokenOut) {
  FakeGitHubServer server(Seed());
  ASSERT_TRUE(server.started());
  // A server that echoes the Authorization header into its error body.
  Script(server, {{{"method", "GET"}, {"path", "/repos/acme/train/issues/1"}, {"status", 403}, {"echo_auth", true}}});
  GitHubClient client = Client(server);
  absl::StatusOr<GitHubIssue> issue = client.GetIssue(1);
  ASSERT_FALSE(issue.ok());
  EXPECT_EQ(issue.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(issue.status().message(), HasSubstr("HTTP 403"));
  EXPECT_THAT(issue.status().message(), HasSubstr("[token]"));
  EXPECT_THAT(issue.status().message(), Not(HasSubstr(kToken)));
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(GitHubClient, NeverPostsTheToken) {
  FakeGitHubServer server(Seed());
  ASSERT_TRUE(server.started());
  GitHubClient client = Client(server);
  absl::StatusOr<GitHubComment> comment = client.AddIssueComment(1, std::string("the log said token=") + kToken);
  ASSERT_TRUE(comment.ok()) << comment.status();
  EXPECT_EQ(comment->body, "the log said token=[token]");
  EXPECT_EQ(server.requests().back()["body"]["body"], "the log said token=[token]");
}

TEST(GitHubClient, RefusesBadNamesAndUrls) {
  GitHubOptions options;
  EXPECT_FALSE(GitHubClient::Create(options, "acme").ok());
  EXPECT_FALSE(GitHubClient::Create(options, "acme/").ok());
  EXPECT_FALSE(GitHubClient::Create(options, "acme/x/y").ok());
  EXPECT_FALSE(GitHubClient::Create(options, "../x").ok());
  options.api = "ftp://example.com";
  EXPECT_FALSE(GitHubClient::Create(options, "acme/train").ok());
  options.api = "https://user:pw@example.com";
  EXPECT_THAT(GitHubClient::Create(options, "acme/train").status().message(), HasSubstr("no credentials"));
  options.api = kGitHubApi;
  options.token = "abc\r\nX-Evil: 1";
  EXPECT_FALSE(GitHubClient::Create(options, "acme/train").ok());
}

}  // namespace
}  // namespace smallfix
