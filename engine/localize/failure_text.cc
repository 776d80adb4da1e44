#include "engine/localize/failure_text.h"

#include <algorithm>

namespace smallfix {
namespace {

bool StartsWithFence(std::string_view line) {
  const size_t start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos) return false;
  line.remove_prefix(start);
  return line.starts_with("```") || line.starts_with("~~~");
}

// A markdown quote marker: '>' at the start of the raw line, not pytest's "> " source
// marker. The caller decides by neighbours (a quote block spans several lines).
bool StartsWithQuote(std::string_view line) { return !line.empty() && line[0] == '>'; }

}  // namespace

std::string StripAnsi(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (size_t i = 0; i < line.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(line[i]);
    if (c == 0x1b) {
      if (i + 1 >= line.size()) break;
      const char kind = line[i + 1];
      if (kind == '[') {  // CSI: parameters and intermediates, then a final byte 0x40-0x7e
        size_t j = i + 2;
        while (j < line.size() && !(line[j] >= 0x40 && line[j] <= 0x7e)) ++j;
        i = j;
      } else if (kind == ']') {  // OSC: up to BEL or ESC '\'
        size_t j = i + 2;
        while (j < line.size() && line[j] != '\a' &&
               !(line[j] == 0x1b && j + 1 < line.size() && line[j + 1] == '\\')) {
          ++j;
        }
        i = (j < line.size() && line[j] == 0x1b) ? j + 1 : j;
      } else {
        ++i;  // two-byte escape
      }
      continue;
    }
    if (c == 0 || c == '\r') continue;
    out.push_back(static_cast<char>(c));
  }
  return out;
}

bool LooksBinary(std::string_view text) {
  const std::string_view sample = text.substr(0, 64 << 10);
  if (sample.empty()) return false;
  size_t bad = 0;
  for (size_t i = 0; i < sample.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(sample[i]);
    if (c == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != 0x1b && c != '\f')) {
      ++bad;
    } else if (c >= 0x80) {
      // Count a byte that cannot start or continue valid UTF-8 here; a full validation
      // is not needed for a ratio.
      size_t length = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
      if (length == 0 || i + length > sample.size()) {
        ++bad;
        continue;
      }
      bool ok = true;
      for (size_t k = 1; k < length; ++k) {
        ok = ok && (static_cast<unsigned char>(sample[i + k]) & 0xc0) == 0x80;
      }
      if (!ok) {
        ++bad;
      } else {
        i += length - 1;
      }
    }
  }
  return bad * 10 > sample.size();  // more than 10% non-text
}

std::string_view TailAtLineStart(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::string_view tail = text.substr(text.size() - max_bytes);
  const size_t newline = tail.find('\n');
  if (newline != std::string_view::npos && newline < 64 << 10) tail.remove_prefix(newline + 1);
  return tail;
}

std::string_view FailureTextReader::RawLineAt(size_t position, size_t* next) const {
  size_t end = position;
  // A line ends at '\n', or at a '\r' not followed by '\n' (progress bars rewrite a line).
  while (end < text_.size() && text_[end] != '\n' &&
         !(text_[end] == '\r' && (end + 1 >= text_.size() || text_[end + 1] != '\n'))) {
    ++end;
  }
  *next = end < text_.size() ? end + 1 : end;
  std::string_view raw = text_.substr(position, end - position);
  if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
  return raw;
}

bool FailureTextReader::Next(std::string* line) {
  if (position_ >= text_.size()) return false;
  size_t next = 0;
  std::string_view raw = RawLineAt(position_, &next);
  position_ = next;
  ++line_index_;
  if (raw.size() > kMaxLineBytes) raw = raw.substr(0, kMaxLineBytes);

  // Quote blocks are two or more consecutive lines starting with '>'. A single '>' line
  // is pytest's marker of the failing source line and must stay.
  bool quoted = false;
  if (StartsWithQuote(raw)) {
    size_t after_next = 0;
    const bool next_quoted =
        position_ < text_.size() && StartsWithQuote(RawLineAt(position_, &after_next));
    quoted = previous_quoted_ || next_quoted;
  }
  previous_quoted_ = quoted;
  if (quoted) {
    raw.remove_prefix(1);
    if (!raw.empty() && raw[0] == ' ') raw.remove_prefix(1);
  }
  if (StartsWithFence(raw)) {
    line->clear();
    return true;
  }
  if (raw.find('\x1b') == std::string_view::npos && raw.find('\0') == std::string_view::npos) {
    line->assign(raw);
  } else {
    *line = StripAnsi(raw);
  }
  return true;
}

}  // namespace smallfix
