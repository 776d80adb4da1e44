#ifndef SMALLFIX_ENGINE_LOCALIZE_FAILURE_TEXT_H_
#define SMALLFIX_ENGINE_LOCALIZE_FAILURE_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace smallfix {

// Normalises what users paste into plain log lines, one line at a time, without copying
// the whole input: ANSI colour and cursor escapes are removed, CRLF and lone CR end lines,
// markdown code fences become blank lines and "> " quoting of issue replies is removed.
//
// Why a line reader: logs reach 100 MB; reading line by line keeps memory bounded by the
// longest line (capped at kMaxLineBytes) instead of a normalised copy of everything.
class FailureTextReader {
 public:
  // Lines longer than this are cut (a minified blob or a progress bar with no newline).
  static constexpr size_t kMaxLineBytes = 16 << 10;

  explicit FailureTextReader(std::string_view text) : text_(text) {}

  // Stores the next normalised line in `*line`; false at the end of the text.
  bool Next(std::string* line);
  // 0-based index of the line last returned.
  size_t line_index() const { return line_index_ - 1; }

 private:
  std::string_view RawLineAt(size_t position, size_t* next) const;

  std::string_view text_;
  size_t position_ = 0;
  size_t line_index_ = 0;
  bool previous_quoted_ = false;
};

// Removes ANSI escape sequences (CSI "ESC [ ... final", OSC "ESC ] ... BEL", two-byte
// escapes), NUL bytes, and a trailing '\r'.
std::string StripAnsi(std::string_view line);

// True when a sample of `text` is mostly not text (NUL bytes, control bytes, bad UTF-8):
// a core dump or a tarball passed by mistake.
bool LooksBinary(std::string_view text);

// The last `max_bytes` of `text`, starting at a line start when one is near.
std::string_view TailAtLineStart(std::string_view text, size_t max_bytes);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_FAILURE_TEXT_H_
