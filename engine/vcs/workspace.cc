#include "engine/vcs/workspace.h"

#include <git2.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/libgit2.h"
#include "engine/base/run_owner.h"

namespace smallfix {
namespace {

namespace fs = std::filesystem;

struct RepoCloser {
  void operator()(git_repository* repo) const { git_repository_free(repo); }
};
using RepoPtr = std::unique_ptr<git_repository, RepoCloser>;

// Directories a plain copy leaves out: they are large and never what tests need.
bool SkipInCopy(const fs::path& name) {
  static const char* kSkip[] = {".git",         "__pycache__", ".pytest_cache",
                                "node_modules", ".tox",        ".mypy_cache"};
  for (const char* skip : kSkip) {
    if (name == skip) return true;
  }
  return false;
}

absl::Status CopyTree(const fs::path& from, const fs::path& to) {
  std::error_code error;
  fs::create_directories(to, error);
  if (error)
    return absl::InternalError(Concat("cannot create ", to.string(), ": ", error.message()));
  for (const fs::directory_entry& entry : fs::directory_iterator(from, error)) {
    const fs::path target = to / entry.path().filename();
    if (entry.is_symlink(error)) {
      fs::copy_symlink(entry.path(), target, error);
    } else if (entry.is_directory(error)) {
      if (SkipInCopy(entry.path().filename())) continue;
      if (absl::Status status = CopyTree(entry.path(), target); !status.ok()) return status;
    } else if (entry.is_regular_file(error)) {
      fs::copy_file(entry.path(), target, fs::copy_options::overwrite_existing, error);
    }
    if (error)
      return absl::InternalError(
          Concat("cannot copy ", entry.path().string(), ": ", error.message()));
  }
  return absl::OkStatus();
}

// Copies what `git status` shows as changed or untracked (not ignored) from the user's
// tree into the worktree, and deletes what the user deleted.
absl::Status CopyUncommitted(git_repository* repo, const fs::path& from, const fs::path& to) {
  git_status_options options;
  git_status_options_init(&options, GIT_STATUS_OPTIONS_VERSION);
  options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
  options.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS |
                  GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
  git_status_list* list = nullptr;
  if (git_status_list_new(&list, repo, &options) != 0) return Libgit2Error("reading git status");
  absl::Status status;
  const size_t count = git_status_list_entrycount(list);
  for (size_t i = 0; i < count && status.ok(); ++i) {
    const git_status_entry* entry = git_status_byindex(list, i);
    const git_diff_delta* delta =
        entry->index_to_workdir ? entry->index_to_workdir : entry->head_to_index;
    if (delta == nullptr) continue;
    const char* relative = delta->new_file.path ? delta->new_file.path : delta->old_file.path;
    std::error_code error;
    const fs::path source = from / relative;
    const fs::path target = to / relative;
    if (!fs::exists(source, error)) {
      fs::remove(target, error);
      continue;
    }
    if (fs::is_directory(source, error)) continue;
    fs::create_directories(target.parent_path(), error);
    fs::copy_file(source, target, fs::copy_options::overwrite_existing, error);
    if (error)
      status = absl::InternalError(Concat("cannot copy ", source.string(), ": ", error.message()));
  }
  git_status_list_free(list);
  return status;
}

// Points the new worktree's HEAD at `commit` directly and deletes the branch libgit2 made for it:
// a run needs no branch, and none is left in the user's repository.
absl::Status Detach(git_repository* repo, git_worktree* worktree, const std::string& branch_name,
                    const git_oid& commit) {
  git_repository* raw = nullptr;
  if (git_repository_open_from_worktree(&raw, worktree) != 0)
    return Libgit2Error("opening the new worktree");
  RepoPtr linked(raw);
  if (git_repository_set_head_detached(linked.get(), &commit) != 0)
    return Libgit2Error("detaching the new worktree's HEAD");
  git_reference* branch = nullptr;
  if (git_branch_lookup(&branch, repo, branch_name.c_str(), GIT_BRANCH_LOCAL) == 0) {
    const int deleted = git_branch_delete(branch);
    git_reference_free(branch);
    if (deleted != 0) return Libgit2Error(Concat("deleting the branch ", branch_name));
  }
  git_error_clear();
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<Workspace>> Workspace::Create(const std::string& repo_root,
                                                             const std::string& parent_dir,
                                                             const std::string& name) {
  EnsureLibgit2();
  std::error_code error;
  const fs::path root = fs::absolute(repo_root, error);
  const fs::path path = fs::path(parent_dir) / name;
  if (fs::exists(path, error)) {
    return absl::AlreadyExistsError(Concat("workspace ", path.string(), " already exists"));
  }
  fs::create_directories(parent_dir, error);
  if (error)
    return absl::InternalError(Concat("cannot create ", parent_dir, ": ", error.message()));

  git_repository* raw = nullptr;
  const bool is_git =
      git_repository_open_ext(&raw, root.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) == 0;
  RepoPtr repo(raw);
  git_reference* head = nullptr;
  if (!is_git || git_repository_head(&head, repo.get()) != 0) {
    // Not a git repo, or one without a commit yet: a plain copy.
    git_error_clear();
    if (absl::Status status = CopyTree(root, path); !status.ok()) {
      fs::remove_all(path, error);
      return status;
    }
    return std::unique_ptr<Workspace>(new Workspace(root.string(), path.string(), ""));
  }
  git_reference_free(head);

  // A worktree at HEAD under a name no other run uses (two runs on one repository at once,
  // or one after a killed run, never meet in .git/worktrees), with a detached HEAD: libgit2
  // 1.5 creates a branch of the worktree's name, which is deleted at once. Between the two a
  // killed run leaves a branch whose name records its owner, and SweepDeadRuns deletes it.
  static std::atomic<int> sequence{0};
  const std::string worktree_name =
      absl::StrFormat("smallfix-%s-%d-%s", OwnerTag(ThisProcess()), ++sequence, name);
  git_object* commit = nullptr;
  if (git_revparse_single(&commit, repo.get(), "HEAD^{commit}") != 0)
    return Libgit2Error("resolving HEAD");
  const git_oid head_id = *git_object_id(commit);
  git_object_free(commit);
  git_worktree_add_options options;
  git_worktree_add_options_init(&options, GIT_WORKTREE_ADD_OPTIONS_VERSION);
  git_worktree* worktree = nullptr;
  if (git_worktree_add(&worktree, repo.get(), worktree_name.c_str(), path.c_str(), &options) != 0) {
    const int cause = errno;
    absl::Status failed = Libgit2Error(Concat("creating a worktree at ", path.string()));
    // git registers the worktree and its branch before the checkout that can fail (a full
    // or read-only TMPDIR): a workspace made for the purpose removes them again.
    { const Workspace partial(root.string(), path.string(), worktree_name); }
    const std::string said(failed.message());
    if (cause == ENOSPC || cause == EROFS || cause == EDQUOT ||
        said.find(strerror(ENOSPC)) != std::string::npos ||
        said.find(strerror(EROFS)) != std::string::npos) {
      failed = absl::FailedPreconditionError(Concat(
          failed.message(), " (", parent_dir, " is full or read-only: free space or set TMPDIR)"));
    }
    return failed;
  }
  auto workspace =
      std::unique_ptr<Workspace>(new Workspace(root.string(), path.string(), worktree_name));
  absl::Status detached = Detach(repo.get(), worktree, worktree_name, head_id);
  git_worktree_free(worktree);
  if (!detached.ok()) return detached;
  if (absl::Status status = CopyUncommitted(repo.get(), root, path); !status.ok()) return status;
  return workspace;
}

Workspace::~Workspace() {
  std::error_code error;
  fs::remove_all(path_, error);
  if (worktree_name_.empty()) return;
  EnsureLibgit2();
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, repo_root_.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) !=
      0)
    return;
  RepoPtr repo(raw);
  git_worktree* worktree = nullptr;
  if (git_worktree_lookup(&worktree, repo.get(), worktree_name_.c_str()) == 0) {
    git_worktree_prune_options options;
    git_worktree_prune_options_init(&options, GIT_WORKTREE_PRUNE_OPTIONS_VERSION);
    options.flags = GIT_WORKTREE_PRUNE_VALID | GIT_WORKTREE_PRUNE_WORKING_TREE;
    git_worktree_prune(worktree, &options);
    git_worktree_free(worktree);
  }
  // The branch git_worktree_add created for it, when detaching failed.
  git_reference* branch = nullptr;
  if (git_branch_lookup(&branch, repo.get(), worktree_name_.c_str(), GIT_BRANCH_LOCAL) == 0) {
    git_branch_delete(branch);
    git_reference_free(branch);
  }
  git_error_clear();
}

absl::Status Workspace::WriteFile(const std::string& relative_path, std::string_view text) const {
  const fs::path target = fs::path(path_) / relative_path;
  std::ofstream out(target, std::ios::binary | std::ios::trunc);
  if (!out) return absl::InternalError(Concat("cannot write ", target.string()));
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out) return absl::InternalError(Concat("cannot write ", target.string()));
  return absl::OkStatus();
}

}  // namespace smallfix
