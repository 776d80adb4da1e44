#include "engine/bench/realfix/git_tree.h"

#include <git2.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "engine/base/libgit2.h"
#include "engine/index/python_files.h"

namespace smallfix::realfix {
namespace {

namespace fs = std::filesystem;

absl::StatusOr<GitTree> TreeOf(git_repository* repo, const std::string& commit) {
  git_oid oid;
  if (git_oid_fromstr(&oid, commit.c_str()) != 0)
    return Libgit2Error(absl::StrFormat("commit %s", commit));
  git_commit* found = nullptr;
  if (git_commit_lookup(&found, repo, &oid) != 0) {
    return absl::NotFoundError(absl::StrFormat("commit %s is not in %s (fetch the mirror again?)",
                                               commit, git_repository_path(repo)));
  }
  GitCommit owned(found);
  git_tree* tree = nullptr;
  if (git_commit_tree(&tree, owned.get()) != 0)
    return Libgit2Error(absl::StrFormat("tree of %s", commit));
  return GitTree(tree);
}

absl::StatusOr<std::string> BlobText(git_repository* repo, const git_oid* oid,
                                     const std::string& path) {
  git_blob* blob = nullptr;
  if (git_blob_lookup(&blob, repo, oid) != 0)
    return Libgit2Error(absl::StrFormat("reading %s", path));
  GitBlob owned(blob);
  return std::string(static_cast<const char*>(git_blob_rawcontent(blob)), git_blob_rawsize(blob));
}

struct WalkState {
  git_repository* repo;
  std::string prefix;  // kPackage: "pkg/"; "" for all
  std::string file;
  fs::path dest;
  int written = 0;
  absl::Status status;
};

int Visit(const char* root, const git_tree_entry* entry, void* payload) {
  auto* state = static_cast<WalkState*>(payload);
  const std::string name = git_tree_entry_name(entry);
  const std::string path = std::string(root) + name;
  if (git_tree_entry_type(entry) == GIT_OBJECT_TREE) {
    if (IsSkippedDirectory(name)) return 1;  // skip this subtree
    // Under kPackage only the package's subtree is entered (and the way to the fault file).
    const std::string dir = path + "/";
    if (!state->prefix.empty() && !dir.starts_with(state->prefix) &&
        !state->prefix.starts_with(dir) && !state->file.starts_with(dir)) {
      return 1;
    }
    return 0;
  }
  if (git_tree_entry_type(entry) != GIT_OBJECT_BLOB || !name.ends_with(".py")) return 0;
  if (git_tree_entry_filemode(entry) == GIT_FILEMODE_LINK) return 0;
  if (!state->prefix.empty() && !path.starts_with(state->prefix) && path != state->file) return 0;
  absl::StatusOr<std::string> text = BlobText(state->repo, git_tree_entry_id(entry), path);
  if (!text.ok()) {
    state->status = text.status();
    return -1;
  }
  const fs::path target = state->dest / path;
  std::error_code error;
  fs::create_directories(target.parent_path(), error);
  std::ofstream out(target, std::ios::binary | std::ios::trunc);
  out.write(text->data(), static_cast<std::streamsize>(text->size()));
  if (!out) {
    state->status = absl::InternalError(absl::StrFormat("cannot write %s", target.string()));
    return -1;
  }
  ++state->written;
  return 0;
}

}  // namespace

absl::StatusOr<std::string> FindProjectGit(const std::string& mirror_root,
                                           const std::string& repo) {
  const std::vector<std::string> parts = absl::StrSplit(repo, '/');
  if (parts.size() != 2)
    return absl::InvalidArgumentError(absl::StrFormat("repo %s: expected OWNER/NAME", repo));
  const fs::path mirror = fs::path(mirror_root) / (parts[0] + "+" + parts[1]) / "repo";
  const fs::path clone = fs::path(mirror_root) / parts[0] / parts[1];
  std::error_code error;
  if (fs::is_directory(mirror, error)) return mirror.string();
  if (fs::is_directory(clone, error)) return clone.string();
  return absl::NotFoundError(absl::StrFormat("no git directory for %s: neither %s nor %s exists",
                                             repo, mirror.string(), clone.string()));
}

absl::StatusOr<int> MaterialiseTree(const std::string& git_dir, const std::string& commit,
                                    const std::string& file, TreeScope scope,
                                    const std::string& dest) {
  absl::StatusOr<GitRepository> repo = OpenGitRepository(git_dir);
  if (!repo.ok()) return repo.status();
  absl::StatusOr<GitTree> tree = TreeOf(repo->get(), commit);
  if (!tree.ok()) return tree.status();
  WalkState state{repo->get(), "", file, dest, 0, absl::OkStatus()};
  const size_t slash = file.find('/');
  if (scope == TreeScope::kPackage && slash != std::string::npos)
    state.prefix = file.substr(0, slash + 1);
  const int walked = git_tree_walk(tree->get(), GIT_TREEWALK_PRE, Visit, &state);
  if (!state.status.ok()) return state.status;
  if (walked != 0) return Libgit2Error(absl::StrFormat("walking the tree of %s", commit));
  return state.written;
}

absl::StatusOr<std::string> ReadAtCommit(const std::string& git_dir, const std::string& commit,
                                         const std::string& file) {
  absl::StatusOr<GitRepository> repo = OpenGitRepository(git_dir);
  if (!repo.ok()) return repo.status();
  absl::StatusOr<GitTree> tree = TreeOf(repo->get(), commit);
  if (!tree.ok()) return tree.status();
  git_tree_entry* entry = nullptr;
  if (git_tree_entry_bypath(&entry, tree->get(), file.c_str()) != 0) {
    return absl::NotFoundError(absl::StrFormat("%s is not in commit %s", file, commit));
  }
  GitTreeEntry owned(entry);
  return BlobText(repo->get(), git_tree_entry_id(entry), file);
}

}  // namespace smallfix::realfix
