#include "engine/forge/issue_text.h"

#include "engine/base/concat.h"

namespace smallfix {

std::string IssueFailureText(const GitHubIssue& issue, const std::vector<GitHubComment>& comments) {
  constexpr char kOwnMarker[] = "<!-- smallfix:";
  std::string text = Concat("# ", issue.title, "\n\n", issue.body, "\n");
  for (const GitHubComment& comment : comments) {
    if (comment.body.find(kOwnMarker) != std::string::npos) continue;
    text += Concat("\n---\nComment by @", comment.author, ":\n\n", comment.body, "\n");
  }
  return text;
}

}  // namespace smallfix
