#ifndef SMALLFIX_ENGINE_CLI_ISSUE_FLAG_H_
#define SMALLFIX_ENGINE_CLI_ISSUE_FLAG_H_

#include <atomic>
#include <string>

#include "absl/status/status.h"
#include "engine/repair/request_builder.h"

namespace smallfix::cli {

// When `inputs.issue` is an issue link (OWNER/NAME#N or an issue's URL), reads the issue through
// the GitHub client, as `smallfix bot` does, into `inputs.failure_text` (an issue) and clears
// `inputs.issue`; a file path is left for BuildRepairRequest to read. `api` is --api ("" for the
// link's own); the token comes from the environment (GitHubTokenFromEnvironment) and may be
// absent. `quiet`: no progress on stderr.
absl::Status ReadIssueLinkFlag(RepairInputs& inputs, const std::string& api, bool quiet,
                               const std::atomic<bool>* cancel);

}  // namespace smallfix::cli

#endif  // SMALLFIX_ENGINE_CLI_ISSUE_FLAG_H_
