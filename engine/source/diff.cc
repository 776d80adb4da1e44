#include "engine/source/diff.h"

#include <git2.h>

#include "engine/base/concat.h"
#include "engine/base/libgit2.h"
#include "engine/base/status_macros.h"

namespace smallfix {

namespace {

// libgit2's patch of two texts under `name`, with `context_lines` of context; a stray NUL or
// odd byte in a Python source still leaves it text to us.
absl::StatusOr<GitPatch> PatchOf(std::string_view before, std::string_view after,
                                 const std::string& name, int context_lines) {
  EnsureLibgit2();
  git_diff_options options;
  git_diff_options_init(&options, GIT_DIFF_OPTIONS_VERSION);
  options.context_lines = static_cast<uint32_t>(context_lines);
  options.flags |= GIT_DIFF_FORCE_TEXT;
  git_patch* patch = nullptr;
  if (git_patch_from_buffers(&patch, before.data(), before.size(), name.c_str(), after.data(),
                             after.size(), name.c_str(), &options) != 0) {
    return Libgit2Error(Concat("diffing ", name));
  }
  return GitPatch(patch);
}

}  // namespace

absl::StatusOr<std::string> UnifiedDiff(std::string_view path, std::string_view before,
                                        std::string_view after, int context_lines) {
  if (before == after) return std::string();
  SMALLFIX_ASSIGN_OR_RETURN(GitPatch patch,
                            PatchOf(before, after, std::string(path), context_lines));
  git_buf buffer = GIT_BUF_INIT;
  const int rc = git_patch_to_buf(&buffer, patch.get());
  if (rc != 0) return Libgit2Error(Concat("writing the diff of ", path));
  std::string text(buffer.ptr, buffer.size);
  git_buf_dispose(&buffer);
  return text;
}

absl::StatusOr<std::vector<LineHunk>> LineHunks(std::string_view before, std::string_view after) {
  std::vector<LineHunk> hunks;
  if (before == after) return hunks;
  SMALLFIX_ASSIGN_OR_RETURN(GitPatch patch, PatchOf(before, after, "file", 0));
  for (size_t h = 0; h < git_patch_num_hunks(patch.get()); ++h) {
    const git_diff_hunk* hunk = nullptr;
    size_t lines = 0;
    if (git_patch_get_hunk(&hunk, &lines, patch.get(), h) != 0)
      return Libgit2Error("reading a diff's hunks");
    hunks.push_back({hunk->old_start, hunk->old_lines, hunk->new_start, hunk->new_lines});
  }
  return hunks;
}

absl::StatusOr<int> ChangedLineCount(std::string_view before, std::string_view after) {
  if (before == after) return 0;
  // Whole common lines at both ends: up to the last newline inside the common prefix, and
  // from the first newline inside the common suffix (both texts have it there).
  const auto [prefix, suffix] = CommonEnds(
      before.size(), after.size(), [&](size_t i, size_t j) { return before[i] == after[j]; });
  const size_t head = before.substr(0, prefix).rfind('\n');
  const size_t start = head == std::string_view::npos ? 0 : head + 1;
  const size_t first = before.find('\n', before.size() - suffix);
  const size_t tail = first == std::string_view::npos ? 0 : before.size() - first - 1;
  const std::string_view old_middle = before.substr(start, before.size() - start - tail);
  const std::string_view new_middle = after.substr(start, after.size() - start - tail);
  SMALLFIX_ASSIGN_OR_RETURN(GitPatch patch, PatchOf(old_middle, new_middle, "file", 0));
  size_t context = 0, added = 0, removed = 0;
  if (git_patch_line_stats(&context, &added, &removed, patch.get()) != 0)
    return Libgit2Error("counting a diff's lines");
  return static_cast<int>(added + removed);
}

std::pair<int, int> AddedRemovedLines(std::string_view diff) {
  int added = 0, removed = 0;
  size_t start = 0;
  while (start < diff.size()) {
    size_t end = diff.find('\n', start);
    if (end == std::string::npos) end = diff.size();
    const std::string_view line(diff.data() + start, end - start);
    if (line.starts_with("+") && !line.starts_with("+++")) ++added;
    if (line.starts_with("-") && !line.starts_with("---")) ++removed;
    start = end + 1;
  }
  return {added, removed};
}

int CountChangedLines(std::string_view diff) {
  const auto [added, removed] = AddedRemovedLines(diff);
  return added + removed;
}

}  // namespace smallfix
