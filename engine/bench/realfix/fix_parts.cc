#include "engine/bench/realfix/fix_parts.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "engine/base/text.h"
#include "engine/source/document.h"

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
size_t FirstLine(int start, int count) {
  return static_cast<size_t>(count > 0 ? start - 1 : start);
}

// A token of a line: a run of word characters, or one other character; spaces are none.
struct Token {
  size_t start = 0, end = 0;  // bytes in the line
};

std::vector<Token> Tokens(std::string_view line) {
  std::vector<Token> tokens;
  for (size_t i = 0; i < line.size();) {
    if (std::isspace(static_cast<unsigned char>(line[i]))) {
      ++i;
      continue;
    }
    size_t end = i + 1;
    if (IsWordChar(line[i])) {
      while (end < line.size() && IsWordChar(line[end])) ++end;
    }
    tokens.push_back({i, end});
    i = end;
  }
  return tokens;
}

// One place where two lines' tokens differ: the bytes between the equal tokens around it,
// in the old line [old_start, old_end) and in the new one [new_start, new_end).
struct Region {
  size_t old_start, old_end, new_start, new_end;
};

// The places where `after` differs from `before`, token by token (a longest common
// subsequence; lines are short), first to last.
std::vector<Region> TokenRegions(std::string_view before, std::string_view after) {
  const std::vector<Token> a = Tokens(before), b = Tokens(after);
  auto text = [](std::string_view line, const Token& t) {
    return line.substr(t.start, t.end - t.start);
  };
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> common(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      common[i][j] = text(before, a[i]) == text(after, b[j])
                         ? common[i + 1][j + 1] + 1
                         : std::max(common[i + 1][j], common[i][j + 1]);
    }
  }
  // Walk the matches; between two matched pairs (or a line end) whatever is unmatched is a region.
  std::vector<Region> regions;
  size_t i = 0, j = 0, old_from = 0, new_from = 0;  // bytes just after the last matched pair
  auto close = [&](size_t old_to, size_t new_to, size_t i0, size_t j0) {
    if (i0 != i || j0 != j) regions.push_back({old_from, old_to, new_from, new_to});
  };
  size_t i0 = 0, j0 = 0;
  while (i < n || j < m) {
    if (i < n && j < m && text(before, a[i]) == text(after, b[j]) &&
        common[i][j] == common[i + 1][j + 1] + 1) {
      close(a[i].start, b[j].start, i0, j0);
      old_from = a[i].end;
      new_from = b[j].end;
      ++i;
      ++j;
      i0 = i;
      j0 = j;
    } else if (j < m && (i == n || common[i][j + 1] >= common[i + 1][j])) {
      ++j;
    } else {
      ++i;
    }
  }
  close(before.size(), after.size(), i0, j0);
  return regions;
}

// Syntax errors in `text` as Python (-1 when it cannot be parsed at all).
int SyntaxErrors(const std::string& text) {
  absl::StatusOr<Document> document = Document::Parse("part.py", text);
  return document.ok() ? document->CountSyntaxErrors() : -1;
}

}  // namespace

absl::StatusOr<std::vector<FixPart>> FixParts(const std::string& before, const std::string& fixed) {
  absl::StatusOr<std::vector<LineHunk>> hunks = LineHunks(before, fixed);
  if (!hunks.ok()) return hunks.status();
  const std::vector<std::string_view> old_lines = Lines(before), new_lines = Lines(fixed);
  std::vector<FixPart> parts;
  int errors_before = -2;  // parsed once, when a hunk first splits
  for (const LineHunk& hunk : *hunks) {
    const size_t old_first = FirstLine(hunk.old_start, hunk.old_lines);
    const size_t new_first = FirstLine(hunk.new_start, hunk.new_lines);
    if (old_first + hunk.old_lines > old_lines.size() ||
        new_first + hunk.new_lines > new_lines.size()) {
      return absl::InternalError("a hunk of the fix lies outside its file");
    }
    auto spliced = [&](size_t old_from, size_t old_to, std::string_view middle) {
      std::string target;
      for (size_t i = 0; i < old_from; ++i) target += old_lines[i];
      target += middle;
      for (size_t i = old_to; i < old_lines.size(); ++i) target += old_lines[i];
      return target;
    };
    // A hunk that rewrites lines one for one may hold several edits (two arguments changed,
    // a name on two lines): each place its tokens differ is a part.
    if (hunk.old_lines == hunk.new_lines) {
      std::vector<FixPart> within;
      for (int k = 0; k < hunk.old_lines; ++k) {
        const std::string_view old_line = old_lines[old_first + k],
                               new_line = new_lines[new_first + k];
        for (const Region& region : TokenRegions(old_line, new_line)) {
          std::string line(old_line.substr(0, region.old_start));
          line += new_line.substr(region.new_start, region.new_end - region.new_start);
          line += old_line.substr(region.old_end);
          within.push_back(FixPart{LineHunk{hunk.old_start + k, 1, hunk.new_start + k, 1},
                                   spliced(old_first + k, old_first + k + 1, line)});
        }
      }
      // Edits that only make sense together (`f(x)` -> `g(f(x))` opens and closes a call)
      // stay one part: each alone must parse as well as the parent does.
      if (within.size() >= 2 && errors_before == -2) errors_before = SyntaxErrors(before);
      const bool each_parses = std::all_of(within.begin(), within.end(), [&](const FixPart& part) {
        return SyntaxErrors(part.target) == errors_before;
      });
      if (within.size() >= 2 && each_parses) {
        for (FixPart& part : within) parts.push_back(std::move(part));
        continue;
      }
    }
    std::string middle;
    for (size_t i = new_first; i < new_first + hunk.new_lines; ++i) middle += new_lines[i];
    parts.push_back(FixPart{hunk, spliced(old_first, old_first + hunk.old_lines, middle)});
  }
  return parts;
}

}  // namespace smallfix::realfix
