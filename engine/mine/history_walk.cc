#include "engine/mine/history_walk.h"

#include <git2.h>

#include <memory>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/base/libgit2.h"

namespace smallfix::mine {
namespace {

bool IsPython(const char* path) { return path != nullptr && absl::EndsWith(path, ".py"); }

std::string BlobText(git_repository* repo, const git_oid& id) {
  if (git_oid_is_zero(&id)) return "";
  git_blob* raw = nullptr;
  if (git_blob_lookup(&raw, repo, &id) != 0) return "";
  GitBlob blob(raw);
  return std::string(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                     static_cast<size_t>(git_blob_rawsize(blob.get())));
}

// The commit's small non-test Python change, or nothing when it is too large or has none.
std::optional<MinedCommit> SmallChange(git_repository* repo, git_commit* commit, int max_lines) {
  git_commit* parent_raw = nullptr;
  if (git_commit_parent(&parent_raw, commit, 0) != 0) return std::nullopt;
  GitCommit parent(parent_raw);
  git_tree *old_raw = nullptr, *new_raw = nullptr;
  if (git_commit_tree(&old_raw, parent.get()) != 0) return std::nullopt;
  GitTree old_tree(old_raw);
  if (git_commit_tree(&new_raw, commit) != 0) return std::nullopt;
  GitTree new_tree(new_raw);
  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  options.context_lines = 0;  // hunks hold only changed lines
  git_diff* diff_raw = nullptr;
  if (git_diff_tree_to_tree(&diff_raw, repo, old_tree.get(), new_tree.get(), &options) != 0)
    return std::nullopt;
  GitDiff diff(diff_raw);
  // First pass over the deltas only (no blob read): count the files that matter.
  const size_t deltas = git_diff_num_deltas(diff.get());
  std::vector<size_t> python;
  for (size_t i = 0; i < deltas; ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff.get(), i);
    const char* path = delta->new_file.path;
    if (!IsPython(path) || IsTestPath(path)) continue;
    if (delta->status != GIT_DELTA_MODIFIED)
      return std::nullopt;  // added, deleted or renamed code: not a small fix
    python.push_back(i);
    if (static_cast<int>(python.size()) > max_lines) return std::nullopt;
  }
  if (python.empty()) return std::nullopt;
  MinedCommit mined;
  int changed = 0;
  for (size_t i : python) {
    git_patch* patch_raw = nullptr;
    if (git_patch_from_diff(&patch_raw, diff.get(), i) != 0 || patch_raw == nullptr)
      return std::nullopt;
    GitPatch patch(patch_raw);
    size_t context = 0, added = 0, deleted = 0;
    git_patch_line_stats(&context, &added, &deleted, patch.get());
    changed += static_cast<int>(std::max(added, deleted));
    if (changed > max_lines) return std::nullopt;
    const git_diff_delta* delta = git_patch_get_delta(patch.get());
    ChangedFile file;
    file.path = delta->new_file.path;
    for (size_t h = 0; h < git_patch_num_hunks(patch.get()); ++h) {
      const git_diff_hunk* hunk = nullptr;
      size_t lines = 0;
      if (git_patch_get_hunk(&hunk, &lines, patch.get(), h) != 0) return std::nullopt;
      file.hunks.push_back({hunk->old_start, hunk->old_lines, hunk->new_start, hunk->new_lines});
    }
    file.before = BlobText(repo, delta->old_file.id);
    file.after = BlobText(repo, delta->new_file.id);
    mined.files.push_back(std::move(file));
  }
  if (changed == 0) return std::nullopt;
  return mined;
}

}  // namespace

bool IsTestPath(const std::string& path) {
  const std::string lower = absl::AsciiStrToLower(path);
  const size_t slash = lower.rfind('/');
  const std::string base = slash == std::string::npos ? lower : lower.substr(slash + 1);
  return absl::StartsWith(lower, "test/") || absl::StartsWith(lower, "tests/") ||
         absl::StrContains(lower, "/test/") || absl::StrContains(lower, "/tests/") ||
         absl::StartsWith(base, "test_") || absl::EndsWith(base, "_test.py") ||
         base == "conftest.py";
}

absl::Status WalkHistory(const std::string& repo_path, const WalkOptions& options,
                         const std::function<void(MinedCommit)>& keep, WalkStats* stats) {
  absl::StatusOr<GitRepository> repo = OpenGitRepository(repo_path);
  if (!repo.ok())
    return absl::InvalidArgumentError(
        absl::StrCat("--repo ", repo_path, " is not a git repository"));
  git_revwalk* walker_raw = nullptr;
  if (git_revwalk_new(&walker_raw, repo->get()) != 0)
    return Libgit2Error("cannot walk the history");
  GitRevwalk walker(walker_raw);
  git_revwalk_sorting(walker.get(), GIT_SORT_TIME);
  if (git_revwalk_push_head(walker.get()) != 0) {
    return absl::InvalidArgumentError(absl::StrCat("--repo ", repo_path, " has no commit at HEAD"));
  }
  git_oid id;
  while (git_revwalk_next(&id, walker.get()) == 0) {
    git_commit* commit_raw = nullptr;
    if (git_commit_lookup(&commit_raw, repo->get(), &id) != 0) continue;
    GitCommit commit(commit_raw);
    // Time order: the first commit older than --since ends the walk.
    if (options.since && git_commit_time(commit.get()) < *options.since) break;
    ++stats->walked;
    if (git_commit_parentcount(commit.get()) != 1) continue;  // merges and the root
    const char* summary = git_commit_summary(commit.get());
    const std::string title = summary ? summary : "";
    if (absl::StartsWithIgnoreCase(title, "revert")) continue;
    std::optional<MinedCommit> mined = SmallChange(repo->get(), commit.get(), options.max_lines);
    if (!mined) continue;
    char sha[GIT_OID_HEXSZ + 1];
    git_oid_tostr(sha, sizeof(sha), &id);
    mined->sha = sha;
    mined->summary = title;
    ++stats->kept;
    keep(std::move(*mined));
  }
  return absl::OkStatus();
}

}  // namespace smallfix::mine
