#include "engine/vcs/run_sweep.h"

#include <git2.h>

#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/strings/str_format.h"
#include "engine/base/libgit2.h"
#include "engine/base/run_owner.h"

namespace smallfix {
namespace {

namespace fs = std::filesystem;

bool IsDead(std::string_view name) {
  const std::optional<RunOwner> owner = OwnerOfName(name);
  return owner.has_value() && StateOf(*owner) == OwnerState::kDead;
}

bool AllOf(std::string_view text, std::string_view allowed) {
  return !text.empty() && text.find_first_not_of(allowed) == std::string_view::npos;
}

// A worktree of a smallfix version before owner tags: smallfix-reproduce or smallfix-c<N> in
// a scratch directory smallfix-XXXXXX. Those versions ran one repair per repository at a time.
bool IsLegacy(std::string_view name, std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  const std::string_view digits = "0123456789";
  const bool legacy_name = name == "smallfix-reproduce" ||
                           (name.starts_with("smallfix-c") && AllOf(name.substr(10), digits));
  const std::string scratch = fs::path(path).parent_path().filename().string();
  return legacy_name && scratch.size() == 15 && scratch.starts_with("smallfix-") &&
         AllOf(std::string_view(scratch).substr(9),
               "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
}

bool DeleteBranch(git_repository* repo, const std::string& name) {
  git_reference* branch = nullptr;
  if (git_branch_lookup(&branch, repo, name.c_str(), GIT_BRANCH_LOCAL) != 0) return false;
  const bool deleted = git_branch_is_checked_out(branch) == 0 && git_branch_delete(branch) == 0;
  git_reference_free(branch);
  return deleted;
}

// The worktree `name`'s directory and record, and the branch of its name if it has one.
void RemoveWorktree(git_repository* repo, const std::string& name, SweepCounts& counts) {
  std::error_code error;
  git_worktree* worktree = nullptr;
  if (git_worktree_lookup(&worktree, repo, name.c_str()) == 0) {
    fs::remove_all(git_worktree_path(worktree), error);
    git_worktree_prune_options options;
    git_worktree_prune_options_init(&options, GIT_WORKTREE_PRUNE_OPTIONS_VERSION);
    options.flags = GIT_WORKTREE_PRUNE_VALID | GIT_WORKTREE_PRUNE_WORKING_TREE;
    git_worktree_prune(worktree, &options);
    git_worktree_free(worktree);
  }
  // A record that libgit2 cannot read (a run killed while creating it) goes by hand.
  fs::remove_all(fs::path(git_repository_commondir(repo)) / "worktrees" / name, error);
  ++counts.worktrees;
  if (DeleteBranch(repo, name)) ++counts.branches;
}

}  // namespace

SweepCounts SweepDeadRuns(const std::string& repo_root) {
  SweepCounts counts;
  EnsureLibgit2();
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, repo_root.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) !=
      0) {
    git_error_clear();
    return counts;
  }
  GitRepository repo(raw);
  git_strarray names{};
  if (git_worktree_list(&names, repo.get()) == 0) {
    for (size_t i = 0; i < names.count; ++i) {
      const std::string name = names.strings[i];
      bool sweep = IsDead(name);
      git_worktree* worktree = nullptr;
      if (!sweep && !OwnerOfName(name) &&
          git_worktree_lookup(&worktree, repo.get(), name.c_str()) == 0) {
        sweep = IsLegacy(name, git_worktree_path(worktree));
        git_worktree_free(worktree);
      }
      if (sweep) RemoveWorktree(repo.get(), name, counts);
    }
    git_strarray_dispose(&names);
  }
  // Branches of runs killed between creating a worktree and detaching it.
  git_branch_iterator* branches = nullptr;
  if (git_branch_iterator_new(&branches, repo.get(), GIT_BRANCH_LOCAL) == 0) {
    std::vector<std::string> dead;
    git_reference* branch = nullptr;
    git_branch_t type;
    while (git_branch_next(&branch, &type, branches) == 0) {
      const char* name = nullptr;
      if (git_branch_name(&name, branch) == 0 && IsDead(name)) dead.emplace_back(name);
      git_reference_free(branch);
    }
    git_branch_iterator_free(branches);
    for (const std::string& name : dead) counts.branches += DeleteBranch(repo.get(), name);
  }
  git_error_clear();
  return counts;
}

SweepCounts SweepBeforeRun(const std::string& repo_root) {
  SweepCounts counts = SweepDeadRuns(repo_root);
  counts.directories = SweepDeadRunDirs().directories;
  return counts;
}

std::string SweepNote(const SweepCounts& counts) {
  if (counts.worktrees + counts.branches + counts.directories == 0) return "";
  return absl::StrFormat(
      "removed what smallfix runs that were killed left behind: %d worktree(s), %d branch(es), "
      "%d scratch director(ies)",
      counts.worktrees, counts.branches, counts.directories);
}

SweepCounts SweepDeadRunDirs() {
  SweepCounts counts;
  std::error_code error;
  const fs::path temp = fs::temp_directory_path(error);
  if (error) return counts;
  for (const fs::directory_entry& entry : fs::directory_iterator(temp, error)) {
    const std::string name = entry.path().filename().string();
    if (!IsDead(name) || !entry.is_directory(error) || entry.is_symlink(error)) continue;
    std::error_code removed;
    fs::remove_all(entry.path(), removed);
    if (!removed) ++counts.directories;
  }
  return counts;
}

}  // namespace smallfix
