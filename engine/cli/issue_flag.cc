#include "engine/cli/issue_flag.h"

#include <iostream>
#include <optional>

#include "absl/strings/str_format.h"
#include "engine/forge/issue_link.h"

namespace smallfix::cli {

absl::Status ReadIssueLinkFlag(RepairInputs& inputs, const std::string& api, bool quiet,
                               const std::atomic<bool>* cancel) {
  if (inputs.issue.empty()) {
    if (!api.empty()) return absl::InvalidArgumentError("--api goes with an --issue link");
    return absl::OkStatus();
  }
  absl::StatusOr<std::optional<IssueLink>> link = ParseIssueLink(inputs.issue);
  if (!link.ok()) return link.status();
  if (!link->has_value()) {
    if (!api.empty())
      return absl::InvalidArgumentError("--api goes with an --issue link, not a file");
    return absl::OkStatus();
  }
  GitHubOptions options;
  options.api = api;
  options.token = GitHubTokenFromEnvironment();
  options.cancel = cancel;
  if (!quiet) {
    options.progress = [](const std::string& line) { std::cerr << "smallfix: " << line << "\n"; };
    std::cerr << absl::StrFormat("smallfix: reading %s#%d from %s\n", (*link)->repository,
                                 (*link)->number, api.empty() ? (*link)->api : api);
  }
  absl::StatusOr<std::string> text = ReadLinkedIssue(**link, std::move(options));
  if (!text.ok()) return text.status();
  inputs.failure_text = *std::move(text);
  inputs.failure_kind = FailureKind::kIssue;
  inputs.issue.clear();
  return absl::OkStatus();
}

}  // namespace smallfix::cli
