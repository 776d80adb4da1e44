#include "engine/repair/apply_patch.h"

#include <filesystem>
#include <fstream>

#include "absl/strings/str_format.h"
#include "engine/base/dir_lock.h"
#include "engine/vcs/dirty_check.h"

namespace smallfix {

absl::Status ApplyToWorkingTree(const std::string& repo, const ScoredCandidate& patch,
                                const std::atomic<bool>* cancel,
                                const std::function<void(const std::string&)>& waiting) {
  absl::StatusOr<DirLock> lock = DirLock::Acquire(
      repo,
      [&] {
        if (waiting) {
          waiting(absl::StrFormat(
              "--apply: waiting for another smallfix run that is applying its patch to %s", repo));
        }
      },
      cancel);
  if (!lock.ok()) return lock.status();
  absl::StatusOr<std::vector<std::string>> dirty = ModifiedTrackedFiles(repo);
  if (!dirty.ok()) return dirty.status();
  if (!dirty->empty()) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "the working tree has uncommitted changes (%s%s); commit or stash them first",
        dirty->front(),
        dirty->size() > 1 ? absl::StrFormat(" and %d more", dirty->size() - 1) : ""));
  }
  for (const FileChange& change : patch.candidate.changes) {
    const std::filesystem::path path = std::filesystem::path(repo) / change.file;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(change.after.data(), static_cast<std::streamsize>(change.after.size()));
    if (!out) return absl::InternalError(absl::StrFormat("cannot write %s", path.string()));
  }
  return absl::OkStatus();
}

}  // namespace smallfix
