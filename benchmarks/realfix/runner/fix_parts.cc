#include "benchmarks/realfix/runner/fix_parts.h"

#include <string_view>

namespace smallfix::realfix {
namespace {

// The lines of `text`, each with its newline (the last one may lack it).
std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    end = end == std::string_view::npos ? text.size() : end + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

// 0-based index of a hunk side's first line: a side of 0 lines starts after its start line.
size_t FirstLine(int start, int count) { return static_cast<size_t>(count > 0 ? start - 1 : start); }

}  // namespace

absl::StatusOr<std::vector<FixPart>> FixParts(const std::string& before, const std::string& fixed) {
  absl::StatusOr<std::vector<LineHunk>> hunks = LineHunks(before, fixed);
  if (!hunks.ok()) return hunks.status();
  const std::vector<std::string_view> old_lines = Lines(before), new_lines = Lines(fixed);
  std::vector<FixPart> parts;
  for (const LineHunk& hunk : *hunks) {
    const size_t old_first = FirstLine(hunk.old_start, hunk.old_lines);
    const size_t new_first = FirstLine(hunk.new_start, hunk.new_lines);
    if (old_first + hunk.old_lines > old_lines.size() || new_first + hunk.new_lines > new_lines.size()) {
      return absl::InternalError("a hunk of the fix lies outside its file");
    }
    FixPart part{hunk, ""};
    for (size_t i = 0; i < old_first; ++i) part.target += old_lines[i];
    for (size_t i = new_first; i < new_first + hunk.new_lines; ++i) part.target += new_lines[i];
    for (size_t i = old_first + hunk.old_lines; i < old_lines.size(); ++i) part.target += old_lines[i];
    parts.push_back(std::move(part));
  }
  return parts;
}

}  // namespace smallfix::realfix
