#include "engine/source/utf8.h"

#include <algorithm>
#include <cstdint>

#include "absl/strings/str_format.h"

namespace smallfix {
namespace {

// Length of the well-formed sequence starting at text[i], or 0 if it is malformed.
// Follows Table 3-7 of the Unicode standard (well-formed UTF-8 byte sequences).
size_t SequenceLength(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
  const uint8_t b0 = byte(i);
  size_t len;
  uint8_t lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 < 0x80) return 1;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;  // no overlongs
    if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;  // no overlongs
    if (b0 == 0xF4) hi = 0x8F;  // nothing past U+10FFFF
  } else {
    return 0;
  }
  if (i + len > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < len; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return len;
}

}  // namespace

absl::Status ValidateUtf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    // Fast path over ASCII, which is nearly all Python source.
    if (static_cast<uint8_t>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const size_t len = SequenceLength(text, i);
    if (len == 0) {
      const size_t line = 1 + std::count(text.begin(), text.begin() + i, '\n');
      return absl::InvalidArgumentError(absl::StrFormat(
          "not valid UTF-8: bad byte 0x%02X at line %d (byte offset %d); smallfix reads "
          "Python source as UTF-8 (PEP 3120), re-encode the file first",
          static_cast<uint8_t>(text[i]), line, i));
    }
    i += len;
  }
  return absl::OkStatus();
}

std::string ReplaceInvalidUtf8(std::string_view text, size_t* replaced) {
  std::string out;
  out.reserve(text.size());
  size_t count = 0;
  for (size_t i = 0; i < text.size();) {
    const size_t len = static_cast<uint8_t>(text[i]) < 0x80 ? 1 : SequenceLength(text, i);
    if (len == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++count;
      ++i;
    } else {
      out.append(text.substr(i, len));
      i += len;
    }
  }
  if (replaced != nullptr) *replaced = count;
  return out;
}

}  // namespace smallfix
