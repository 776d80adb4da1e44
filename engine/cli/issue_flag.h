#ifndef SMALLFIX_ENGINE_CLI_ISSUE_FLAG_H_
#define SMALLFIX_ENGINE_CLI_ISSUE_FLAG_H_

#include <atomic>
#include <string>

#include "absl/status/status.h"
#include "engine/cli/repair_request.h"

namespace smallfix::cli {

// When `flags.issue` is an issue link (OWNER/NAME#N or an issue's URL), reads the issue through
// the GitHub client, as `smallfix bot` does, into `flags.issue_text` and clears `flags.issue`;
// a file path is left for MakeRepairRequest to read. `api` is --api ("" for the link's own);
// the token comes from the environment (GitHubTokenFromEnvironment) and may be absent.
absl::Status ReadIssueLinkFlag(RepairFlags& flags, const std::string& api,
                               const std::atomic<bool>* cancel);

}  // namespace smallfix::cli

#endif  // SMALLFIX_ENGINE_CLI_ISSUE_FLAG_H_
