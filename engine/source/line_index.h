#ifndef SMALLFIX_ENGINE_SOURCE_LINE_INDEX_H_
#define SMALLFIX_ENGINE_SOURCE_LINE_INDEX_H_

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace smallfix {

// A place in a text: 0-based line and 0-based byte column (tree-sitter's convention).
struct Position {
  int line = 0;
  int column = 0;
  friend bool operator==(const Position&, const Position&) = default;
};

// Maps byte offsets to lines and columns and back. Lines end at '\n'; a '\r' before it
// belongs to the line terminator, never to the line's content.
class LineIndex {
 public:
  LineIndex() = default;
  explicit LineIndex(std::string_view text);

  int line_count() const { return static_cast<int>(starts_.size()); }
  // First byte of `line`.
  size_t LineStart(int line) const { return starts_[line]; }
  // One past the last content byte of `line`: before "\n" or "\r\n".
  size_t LineEnd(int line) const;
  // One past the line's terminator (the next line's start, or the text's end).
  size_t LineEndWithNewline(int line) const;
  std::string_view Line(int line) const;

  Position ToPosition(size_t byte) const;
  // nullopt when the line or column lies outside the text.
  std::optional<size_t> ToByte(Position position) const;

 private:
  std::string_view text_;
  std::vector<size_t> starts_;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SOURCE_LINE_INDEX_H_
