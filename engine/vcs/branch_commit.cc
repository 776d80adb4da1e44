#include "engine/vcs/branch_commit.h"

#include <git2.h>

#include <algorithm>
#include <memory>

#include "engine/base/concat.h"
#include "engine/base/libgit2.h"
#include "engine/base/status_macros.h"

namespace smallfix {
namespace {

absl::StatusOr<GitCommit> Resolve(git_repository* repo, const std::string& ref) {
  git_object* object = nullptr;
  if (git_revparse_single(&object, repo, Concat(ref, "^{commit}").c_str()) != 0) {
    return Libgit2Error(Concat("resolving ", ref));
  }
  return GitCommit(reinterpret_cast<git_commit*>(object));
}

std::string Person(const git_signature* who) { return Concat(who->name, " <", who->email, ">"); }

}  // namespace

absl::Status CheckoutDetached(const std::string& dir, const std::string& ref) {
  SMALLFIX_ASSIGN_OR_RETURN(GitRepository repo, OpenGitRepository(dir));
  SMALLFIX_ASSIGN_OR_RETURN(GitCommit commit, Resolve(repo.get(), ref));
  git_checkout_options options;
  git_checkout_options_init(&options, GIT_CHECKOUT_OPTIONS_VERSION);
  options.checkout_strategy = GIT_CHECKOUT_FORCE | GIT_CHECKOUT_REMOVE_UNTRACKED;
  if (git_checkout_tree(repo.get(), reinterpret_cast<git_object*>(commit.get()), &options) != 0 ||
      git_repository_set_head_detached(repo.get(), git_commit_id(commit.get())) != 0) {
    return Libgit2Error(Concat("checking out ", ref, " in ", dir));
  }
  return absl::OkStatus();
}

bool RefExists(const std::string& dir, const std::string& ref) {
  absl::StatusOr<GitRepository> repo = OpenGitRepository(dir);
  if (!repo.ok()) return false;
  const bool exists = Resolve(repo->get(), ref).ok();
  git_error_clear();
  return exists;
}

absl::StatusOr<std::string> CommitChanges(const std::string& dir, const std::string& parent_ref,
                                          const std::string& branch,
                                          const std::vector<FileChange>& changes,
                                          const GitIdentity& identity, const std::string& message) {
  SMALLFIX_ASSIGN_OR_RETURN(GitRepository repo, OpenGitRepository(dir));
  SMALLFIX_ASSIGN_OR_RETURN(GitCommit parent, Resolve(repo.get(), parent_ref));
  git_tree* parent_tree_raw = nullptr;
  if (git_commit_tree(&parent_tree_raw, parent.get()) != 0)
    return Libgit2Error("reading the parent's tree");
  GitTree parent_tree(parent_tree_raw);
  // An index in memory: the clone's own index and working tree stay as they are.
  git_index* index_raw = nullptr;
  if (git_index_new(&index_raw) != 0) return Libgit2Error("creating an index");
  GitIndex index(index_raw);
  if (git_index_read_tree(index.get(), parent_tree.get()) != 0)
    return Libgit2Error("reading the parent's tree");
  for (const FileChange& change : changes) {
    git_index_entry entry{};
    const git_index_entry* existing = git_index_get_bypath(index.get(), change.file.c_str(), 0);
    entry.mode = existing != nullptr ? existing->mode : static_cast<uint32_t>(GIT_FILEMODE_BLOB);
    entry.path = change.file.c_str();
    if (git_blob_create_from_buffer(&entry.id, repo.get(), change.after.data(),
                                    change.after.size()) != 0 ||
        git_index_add(index.get(), &entry) != 0) {
      return Libgit2Error(Concat("staging ", change.file));
    }
  }
  git_oid tree_id;
  if (git_index_write_tree_to(&tree_id, index.get(), repo.get()) != 0)
    return Libgit2Error("writing the tree");
  git_tree* tree_raw = nullptr;
  if (git_tree_lookup(&tree_raw, repo.get(), &tree_id) != 0)
    return Libgit2Error("reading the new tree");
  GitTree tree(tree_raw);
  git_signature* signature_raw = nullptr;
  if (git_signature_now(&signature_raw, identity.name.c_str(), identity.email.c_str()) != 0) {
    return Libgit2Error(Concat("the commit identity ", identity.name, " <", identity.email, ">"));
  }
  GitSignature signature(signature_raw);
  git_oid commit_id;
  const git_commit* parents[] = {parent.get()};
  if (git_commit_create(&commit_id, repo.get(), nullptr, signature.get(), signature.get(), "UTF-8",
                        message.c_str(), tree.get(), 1, parents) != 0) {
    return Libgit2Error("creating the commit");
  }
  git_reference* ref = nullptr;
  if (git_reference_create(&ref, repo.get(), Concat("refs/heads/", branch).c_str(), &commit_id, 1,
                           "smallfix: suggested fix") != 0) {
    return Libgit2Error(Concat("storing branch ", branch));
  }
  git_reference_free(ref);
  char hex[GIT_OID_HEXSZ + 1] = {0};
  git_oid_tostr(hex, sizeof hex, &commit_id);
  return std::string(hex);
}

absl::StatusOr<bool> SameChange(const std::string& dir, const std::string& ref_a,
                                const std::string& ref_b) {
  SMALLFIX_ASSIGN_OR_RETURN(GitRepository repo, OpenGitRepository(dir));
  SMALLFIX_ASSIGN_OR_RETURN(GitCommit a, Resolve(repo.get(), ref_a));
  SMALLFIX_ASSIGN_OR_RETURN(GitCommit b, Resolve(repo.get(), ref_b));
  if (!git_oid_equal(git_commit_tree_id(a.get()), git_commit_tree_id(b.get()))) return false;
  const unsigned count = git_commit_parentcount(a.get());
  if (count != git_commit_parentcount(b.get())) return false;
  for (unsigned i = 0; i < count; ++i) {
    if (!git_oid_equal(git_commit_parent_id(a.get(), i), git_commit_parent_id(b.get(), i)))
      return false;
  }
  return true;
}

absl::StatusOr<std::vector<std::string>> OtherPeoplesCommits(const std::string& dir,
                                                             const std::string& ref,
                                                             const std::string& base_ref,
                                                             const std::string& email) {
  SMALLFIX_ASSIGN_OR_RETURN(GitRepository repo, OpenGitRepository(dir));
  SMALLFIX_ASSIGN_OR_RETURN(GitCommit tip, Resolve(repo.get(), ref));
  SMALLFIX_ASSIGN_OR_RETURN(GitCommit base, Resolve(repo.get(), base_ref));
  git_revwalk* walk_raw = nullptr;
  if (git_revwalk_new(&walk_raw, repo.get()) != 0) return Libgit2Error("walking history");
  GitRevwalk walk(walk_raw);
  if (git_revwalk_push(walk.get(), git_commit_id(tip.get())) != 0 ||
      git_revwalk_hide(walk.get(), git_commit_id(base.get())) != 0) {
    return Libgit2Error(Concat("walking ", ref));
  }
  std::vector<std::string> people;
  git_oid id;
  while (git_revwalk_next(&id, walk.get()) == 0) {
    git_commit* raw = nullptr;
    if (git_commit_lookup(&raw, repo.get(), &id) != 0) return Libgit2Error("reading a commit");
    GitCommit commit(raw);
    for (const git_signature* who :
         {git_commit_author(commit.get()), git_commit_committer(commit.get())}) {
      if (who->email != email &&
          std::find(people.begin(), people.end(), Person(who)) == people.end()) {
        people.push_back(Person(who));
      }
    }
  }
  git_error_clear();
  return people;
}

}  // namespace smallfix
