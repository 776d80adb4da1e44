#ifndef SMALLFIX_ENGINE_REPAIR_APPLY_PATCH_H_
#define SMALLFIX_ENGINE_REPAIR_APPLY_PATCH_H_

#include <atomic>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "engine/rank/ranker.h"

namespace smallfix {

// Writes the candidate's files into the working tree of `repo` (`repair --apply`). Refused
// (FailedPrecondition, naming the first changed file) when tracked files have uncommitted
// changes: the patch must not mix with the user's own edits. The check and the writes are one
// step among runs at once (a DirLock on the tree): a second run applying a patch here finds the
// first one's and refuses, instead of mixing two. `waiting` hears that it waits for another.
absl::Status ApplyToWorkingTree(const std::string& repo, const ScoredCandidate& patch,
                                const std::atomic<bool>* cancel,
                                const std::function<void(const std::string&)>& waiting);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_APPLY_PATCH_H_
