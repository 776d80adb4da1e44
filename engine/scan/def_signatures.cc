#include "engine/scan/def_signatures.h"

namespace smallfix {
namespace {

// A byte of a Python name: ASCII letters, digits and '_', and any byte of a UTF-8 sequence
// (names may be non-ASCII).
bool IsNameByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// Skips the string literal whose opening quote is at `i` (prefixes already passed);
// returns the offset after it, or npos when it never ends.
size_t SkipString(std::string_view text, size_t i) {
  const char quote = text[i];
  const std::string closing(3, quote);
  const bool triple = text.substr(i, 3) == closing;
  size_t at = i + (triple ? 3 : 1);
  while (at < text.size()) {
    const char c = text[at];
    if (c == '\\') {
      at += 2;  // an escape (also in raw strings, where it keeps the quote from ending them)
      continue;
    }
    if (!triple && c == '\n') return at;  // an unterminated one-line string ends at its line
    if (c == quote && (!triple || text.substr(at, 3) == closing)) {
      return at + (triple ? 3 : 1);
    }
    ++at;
  }
  return std::string_view::npos;
}

// Skips a comment, a string or one other character at `i`; npos when a string never ends.
size_t SkipToken(std::string_view text, size_t i) {
  const char c = text[i];
  if (c == '#') {
    const size_t end = text.find('\n', i);
    return end == std::string_view::npos ? text.size() : end;
  }
  if (c == '"' || c == '\'') return SkipString(text, i);
  return i + 1;
}

}  // namespace

std::string DefSignatures(std::string_view text) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '#' || c == '"' || c == '\'') {
      i = SkipToken(text, i);
      if (i == std::string_view::npos) return std::string(text);
      continue;
    }
    if (!IsNameByte(c)) {
      ++i;
      continue;
    }
    // A word: `def` starts a signature; any other word (a string prefix like rb, f, u
    // included: its quote is handled on the next turn) is passed over.
    size_t end = i;
    while (end < text.size() && IsNameByte(text[end])) ++end;
    const bool is_def = text.substr(i, end - i) == "def";
    i = end;
    if (!is_def) continue;
    // def NAME [type params] ( ... ): take the parentheses with what they hold.
    size_t open = text.find('(', i);
    if (open == std::string_view::npos) return out;
    int depth = 0;
    size_t at = open;
    while (at < text.size()) {
      const char d = text[at];
      if (d == '(' || d == '[' || d == '{') ++depth;
      if (d == ')' || d == ']' || d == '}') --depth;
      if (depth == 0) break;
      at = SkipToken(text, at);
      if (at == std::string_view::npos) return std::string(text);
    }
    if (at >= text.size()) return std::string(text);
    out.append(text.substr(open, at + 1 - open));
    out += '\n';
    i = at + 1;
  }
  return out;
}

}  // namespace smallfix
