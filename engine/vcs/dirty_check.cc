#include "engine/vcs/dirty_check.h"

#include <git2.h>

#include "engine/base/libgit2.h"

namespace smallfix {

absl::StatusOr<std::vector<std::string>> ModifiedTrackedFiles(const std::string& repo) {
  EnsureLibgit2();
  std::vector<std::string> files;
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, repo.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    git_error_clear();
    return files;  // not a git repo
  }
  git_status_options options;
  git_status_options_init(&options, GIT_STATUS_OPTIONS_VERSION);
  options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
  options.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES;  // untracked files are not "dirty"
  git_status_list* list = nullptr;
  if (git_status_list_new(&list, raw, &options) != 0) {
    git_repository_free(raw);
    return Libgit2Error("reading git status");
  }
  for (size_t i = 0; i < git_status_list_entrycount(list); ++i) {
    const git_status_entry* entry = git_status_byindex(list, i);
    if (entry->status == GIT_STATUS_CURRENT || (entry->status & GIT_STATUS_IGNORED)) continue;
    const git_diff_delta* delta =
        entry->index_to_workdir ? entry->index_to_workdir : entry->head_to_index;
    if (delta != nullptr) files.emplace_back(delta->old_file.path);
  }
  git_status_list_free(list);
  git_repository_free(raw);
  return files;
}

}  // namespace smallfix
