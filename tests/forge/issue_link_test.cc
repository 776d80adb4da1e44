// What `repair --issue` takes as a link (ParseIssueLink) and the text an issue gives
// (IssueFailureText); reading a linked issue end to end is tests/cli/repair_issue_link_test.sh.
#include "engine/forge/issue_link.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "engine/forge/issue_text.h"

namespace smallfix {
namespace {

using ::testing::HasSubstr;

IssueLink Link(std::string_view text) {
  absl::StatusOr<std::optional<IssueLink>> link = ParseIssueLink(text);
  EXPECT_TRUE(link.ok()) << link.status();
  EXPECT_TRUE(link.ok() && link->has_value()) << text;
  return link.ok() && link->has_value() ? **link : IssueLink{};
}

std::string Error(std::string_view text) {
  absl::StatusOr<std::optional<IssueLink>> link = ParseIssueLink(text);
  EXPECT_FALSE(link.ok()) << text;
  return link.ok() ? "" : std::string(link.status().message());
}

TEST(IssueLinkTest, ShortForm) {
  const IssueLink link = Link("acme/train#42");
  EXPECT_EQ(link.repository, "acme/train");
  EXPECT_EQ(link.number, 42);
  EXPECT_EQ(link.api, "https://api.github.com");
}

TEST(IssueLinkTest, GitHubUrls) {
  for (const char* url :
       {"https://github.com/acme/train/issues/42", "https://github.com/acme/train/issues/42/",
        "https://www.github.com/acme/train/issues/42?x=1",
        "https://github.com/acme/train/issues/42#issuecomment-7", "HTTPS://GitHub.com/acme/train/issues/42"}) {
    const IssueLink link = Link(url);
    EXPECT_EQ(link.repository, "acme/train") << url;
    EXPECT_EQ(link.number, 42) << url;
    EXPECT_EQ(link.api, "https://api.github.com") << url;
  }
}

TEST(IssueLinkTest, AnotherHostIsGitHubEnterprise) {
  EXPECT_EQ(Link("https://git.corp.example/ml/trainer/issues/3").api, "https://git.corp.example/api/v3");
  EXPECT_EQ(Link("http://127.0.0.1:8080/ml/trainer/issues/3").api, "http://127.0.0.1:8080/api/v3");
}

TEST(IssueLinkTest, MalformedLinksNameTheTextAndTheForms) {
  EXPECT_THAT(Error("https://github.com/acme/train/pull/42"), HasSubstr("a pull request, not an issue"));
  EXPECT_THAT(Error("https://github.com/acme/train"), HasSubstr("not a link to one issue"));
  EXPECT_THAT(Error("https://github.com/acme/train/issues/0"), HasSubstr("bad issue number 0"));
  EXPECT_THAT(Error("https://github.com/acme/train/issues/x1"), HasSubstr("bad issue number x1"));
  EXPECT_THAT(Error("https://github.com/ac%20me/train/issues/1"), HasSubstr("bad repository name"));
  EXPECT_THAT(Error("https://user:tok@github.com/acme/train/issues/1"), HasSubstr("no credentials"));
  EXPECT_THAT(Error("https://"), HasSubstr("no host and path"));
  EXPECT_THAT(Error("acme/train#"), HasSubstr("no issue number after the '#'"));
  EXPECT_THAT(Error("acme#3"), HasSubstr("no OWNER/NAME before the '#'"));
  const std::string error = Error("acme/train#-3");
  EXPECT_THAT(error, HasSubstr("--issue acme/train#-3: "));
  EXPECT_THAT(error, HasSubstr("expected OWNER/NAME#NUMBER, https://github.com/OWNER/NAME/issues/NUMBER or a file"));
}

TEST(IssueLinkTest, FilesStayFiles) {
  // A path without '#' is a file whether or not it exists (the reader says when it does not);
  // an existing file named like a link is still the file.
  EXPECT_FALSE(ParseIssueLink("issue.md")->has_value());
  EXPECT_FALSE(ParseIssueLink("logs/acme/train.md")->has_value());
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("smallfix-issue-link-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "acme");
  std::ofstream(dir / "acme" / "train#3") << "Traceback\n";
  const std::string odd = (dir / "acme" / "train#3").string();
  EXPECT_FALSE(ParseIssueLink(odd)->has_value());
  std::filesystem::remove_all(dir);
}

TEST(IssueTextTest, TitleBodyAndOthersComments) {
  GitHubIssue issue;
  issue.title = "crash";
  issue.body = "Traceback";
  std::vector<GitHubComment> comments(3);
  comments[0].author = "alice";
  comments[0].body = "me too";
  comments[1].author = "bot";
  comments[1].body = "<!-- smallfix:no-patch issue=1 version=0.1.0 -->\nno patch";
  comments[2].author = "bob";
  comments[2].body = "on torch 2.13";
  EXPECT_EQ(IssueFailureText(issue, comments),
            "# crash\n\nTraceback\n\n---\nComment by @alice:\n\nme too\n\n---\nComment by "
            "@bob:\n\non torch 2.13\n");
}

}  // namespace
}  // namespace smallfix
