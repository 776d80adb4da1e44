#ifndef SMALLFIX_ENGINE_FORGE_ISSUE_TEXT_H_
#define SMALLFIX_ENGINE_FORGE_ISSUE_TEXT_H_

#include <string>
#include <vector>

#include "engine/forge/github_objects.h"

namespace smallfix {

// The failure input an issue gives: its title and body and every comment not written by
// smallfix itself (those carry a "<!-- smallfix:" marker). `smallfix bot` and
// `repair --issue OWNER/NAME#N` both read an issue through this, so both see the same text.
std::string IssueFailureText(const GitHubIssue& issue, const std::vector<GitHubComment>& comments);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_FORGE_ISSUE_TEXT_H_
