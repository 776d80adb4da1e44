#include "engine/bench/smallfix/unified_diff.h"

#include <cstdlib>
#include <string_view>

#include "absl/strings/str_format.h"
#include "re2/re2.h"

namespace smallfix::bench {
namespace {

struct Hunk {
  int old_start = 0;                   // 1-based; 0 for an empty old side
  std::vector<std::string> old_lines;  // with their newlines
  std::vector<std::string> new_lines;
};

struct FilePatch {
  std::string old_path, new_path;
  std::vector<Hunk> hunks;
};

std::vector<std::string> SplitLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    end = end == std::string_view::npos ? text.size() : end + 1;
    lines.emplace_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

// "a/pkg/mod.py\t2024-..." -> "pkg/mod.py"; "/dev/null" stays.
std::string StripPath(std::string_view header) {
  std::string path(header.substr(0, header.find('\t')));
  while (!path.empty() && (path.back() == '\n' || path.back() == '\r' || path.back() == ' '))
    path.pop_back();
  if (path == "/dev/null") return path;
  if (path.size() > 2 && (path.starts_with("a/") || path.starts_with("b/"))) path = path.substr(2);
  return path;
}

absl::StatusOr<std::vector<FilePatch>> Parse(const std::string& diff) {
  static const RE2 kHunk(R"(@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@.*\n?)");
  std::vector<FilePatch> patches;
  std::vector<std::string> lines = SplitLines(diff);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.starts_with("--- ") && i + 1 < lines.size() && lines[i + 1].starts_with("+++ ")) {
      patches.push_back({StripPath(std::string_view(line).substr(4)),
                         StripPath(std::string_view(lines[i + 1]).substr(4)),
                         {}});
      ++i;
      continue;
    }
    int old_start = 0, old_count = 1, new_start = 0, new_count = 1;
    std::string old_count_text, new_count_text;
    if (!RE2::FullMatch(line, kHunk, &old_start, &old_count_text, &new_start, &new_count_text))
      continue;
    if (patches.empty())
      return absl::InvalidArgumentError(
          absl::StrFormat("diff line %d: a hunk before any file header", i + 1));
    if (!old_count_text.empty()) old_count = std::atoi(old_count_text.c_str());
    if (!new_count_text.empty()) new_count = std::atoi(new_count_text.c_str());
    Hunk hunk;
    hunk.old_start = old_start;
    int old_seen = 0, new_seen = 0;
    while ((old_seen < old_count || new_seen < new_count) && i + 1 < lines.size()) {
      const std::string& body = lines[++i];
      const char tag = body.empty() ? ' ' : body[0];
      std::string text = body.empty() ? "\n" : body.substr(1);
      if (body == "\n") text = "\n";
      if (tag == '\\') continue;
      const bool no_newline = i + 1 < lines.size() && lines[i + 1].starts_with("\\");
      if (no_newline && !text.empty() && text.back() == '\n') text.pop_back();
      if (tag == ' ') {
        hunk.old_lines.push_back(text);
        hunk.new_lines.push_back(text);
        ++old_seen, ++new_seen;
      } else if (tag == '-') {
        hunk.old_lines.push_back(text);
        ++old_seen;
      } else if (tag == '+') {
        hunk.new_lines.push_back(text);
        ++new_seen;
      } else {
        return absl::InvalidArgumentError(
            absl::StrFormat("diff line %d: unexpected hunk line", i + 1));
      }
    }
    if (old_seen != old_count || new_seen != new_count) {
      return absl::InvalidArgumentError(
          absl::StrFormat("diff line %d: the hunk is shorter than its header says", i + 1));
    }
    patches.back().hunks.push_back(std::move(hunk));
  }
  if (patches.empty()) return absl::InvalidArgumentError("the diff changes no file");
  return patches;
}

bool MatchesAt(const std::vector<std::string>& file, const std::vector<std::string>& old_lines,
               size_t at) {
  if (at + old_lines.size() > file.size()) return false;
  for (size_t k = 0; k < old_lines.size(); ++k) {
    if (file[at + k] != old_lines[k]) return false;
  }
  return true;
}

absl::StatusOr<std::string> ApplyHunks(const std::string& file_name, const std::string& before,
                                       const std::vector<Hunk>& hunks) {
  std::vector<std::string> lines = SplitLines(before);
  long shift = 0;  // lines added minus removed by earlier hunks
  for (size_t h = 0; h < hunks.size(); ++h) {
    const Hunk& hunk = hunks[h];
    const long wanted = std::max(0L, (hunk.old_start > 0 ? hunk.old_start - 1 : 0) + shift);
    long found = -1;
    for (long offset = 0; offset <= static_cast<long>(lines.size()) && found < 0; ++offset) {
      if (MatchesAt(lines, hunk.old_lines, wanted + offset))
        found = wanted + offset;
      else if (offset > 0 && wanted - offset >= 0 &&
               MatchesAt(lines, hunk.old_lines, wanted - offset))
        found = wanted - offset;
    }
    if (found < 0) {
      return absl::FailedPreconditionError(absl::StrFormat(
          "%s: hunk %d (at line %d) does not apply", file_name, h + 1, hunk.old_start));
    }
    lines.erase(lines.begin() + found,
                lines.begin() + found + static_cast<long>(hunk.old_lines.size()));
    lines.insert(lines.begin() + found, hunk.new_lines.begin(), hunk.new_lines.end());
    shift += static_cast<long>(hunk.new_lines.size()) - static_cast<long>(hunk.old_lines.size());
  }
  std::string after;
  for (const std::string& line : lines) after += line;
  return after;
}

}  // namespace

absl::StatusOr<std::vector<FileChange>> ApplyUnifiedDiff(const std::string& diff,
                                                         const FileReader& read) {
  absl::StatusOr<std::vector<FilePatch>> patches = Parse(diff);
  if (!patches.ok()) return patches.status();
  std::vector<FileChange> out;
  for (const FilePatch& patch : *patches) {
    const std::string& name = patch.new_path != "/dev/null" ? patch.new_path : patch.old_path;
    std::string before;
    if (patch.old_path != "/dev/null") {
      absl::StatusOr<std::string> text = read(patch.old_path);
      if (!text.ok()) return text.status();
      before = *std::move(text);
    }
    absl::StatusOr<std::string> after = ApplyHunks(name, before, patch.hunks);
    if (!after.ok()) return after.status();
    out.push_back({name, std::move(before), *std::move(after)});
  }
  return out;
}

}  // namespace smallfix::bench
