#ifndef SMALLFIX_ENGINE_SOURCE_UTF8_H_
#define SMALLFIX_ENGINE_SOURCE_UTF8_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace smallfix {

// OK when `text` is well-formed UTF-8 (no overlongs, no surrogates, nothing past
// U+10FFFF); otherwise InvalidArgument naming the 1-based line and the byte offset of
// the first bad sequence, so a user can find it in an editor.
absl::Status ValidateUtf8(std::string_view text);

// `text` with each byte that does not belong to a well-formed sequence replaced by U+FFFD, and
// how many were in `*replaced`: text pasted from a terminal in another encoding, read anyway.
std::string ReplaceInvalidUtf8(std::string_view text, size_t* replaced = nullptr);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SOURCE_UTF8_H_
