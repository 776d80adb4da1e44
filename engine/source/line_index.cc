#include "engine/source/line_index.h"

#include <algorithm>
#include <cstring>

namespace smallfix {

LineIndex::LineIndex(std::string_view text) : text_(text) {
  starts_.reserve(text.size() / 32 + 1);
  starts_.push_back(0);
  const char* begin = text.data();
  const char* end = begin + text.size();
  for (const char* p = begin; p < end;) {
    const void* nl = std::memchr(p, '\n', end - p);
    if (nl == nullptr) break;
    p = static_cast<const char*>(nl) + 1;
    starts_.push_back(p - begin);
  }
}

size_t LineIndex::LineEndWithNewline(int line) const {
  return line + 1 < line_count() ? starts_[line + 1] : text_.size();
}

size_t LineIndex::LineEnd(int line) const {
  size_t end = LineEndWithNewline(line);
  if (end > starts_[line] && text_[end - 1] == '\n') --end;
  if (end > starts_[line] && text_[end - 1] == '\r') --end;
  return end;
}

std::string_view LineIndex::Line(int line) const {
  return text_.substr(starts_[line], LineEnd(line) - starts_[line]);
}

Position LineIndex::ToPosition(size_t byte) const {
  byte = std::min(byte, text_.size());
  auto it = std::upper_bound(starts_.begin(), starts_.end(), byte);
  const int line = static_cast<int>(it - starts_.begin()) - 1;
  return {line, static_cast<int>(byte - starts_[line])};
}

std::optional<size_t> LineIndex::ToByte(Position position) const {
  if (position.line < 0 || position.line >= line_count() || position.column < 0) {
    return std::nullopt;
  }
  const size_t byte = starts_[position.line] + position.column;
  if (byte > LineEndWithNewline(position.line)) return std::nullopt;
  return byte;
}

}  // namespace smallfix
