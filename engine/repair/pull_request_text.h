#ifndef SMALLFIX_ENGINE_REPAIR_PULL_REQUEST_TEXT_H_
#define SMALLFIX_ENGINE_REPAIR_PULL_REQUEST_TEXT_H_

#include <string>
#include <string_view>

#include "engine/repair/pipeline.h"

namespace smallfix {

// What the bot writes on GitHub, from a repair report: the pull request with a validated
// patch, or the one comment when there is none. Each carries a hidden marker (an HTML comment)
// that later runs look for, so that the bot recognises its own posts.

// A short stable id of a patch (FNV-1a 64 of its diff, hex): the same patch on the same
// files gets the same id whenever and wherever it is found.
std::string PatchId(const ValidatedCandidate& fix);

// "<!-- smallfix:patch ID -->": in the body of every pull request for that patch.
std::string PatchMarker(std::string_view patch_id);
// "<!-- smallfix:no-patch issue=N engine=V -->": in the comment, once per issue and version.
std::string NoPatchMarker(int issue, std::string_view engine_version);

// "Fix #N: <the template's summary>".
std::string PullRequestTitle(int issue, const ValidatedCandidate& fix);

// Markdown: the failure, the site, the template and why it applies, the validation table
// (stages, the tests run, ranks), the diff, "Fixes #N", and a line that says smallfix
// generated and validated it.
std::string PullRequestBody(const RepairReport& report, const ValidatedCandidate& fix,
                            const ValidationPlan& plan, int issue, std::string_view engine_version);

// Markdown: what was read from the issue, the sites, the candidates tried and how each
// failed, so that a maintainer sees what the engine did. A non-empty `problem` is why the
// repair could not start (no failure in the issue, no test command); the report is then empty.
std::string NoPatchComment(const RepairReport& report, const ValidationPlan& plan, int issue,
                           std::string_view engine_version, std::string_view problem = "");

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_PULL_REQUEST_TEXT_H_
