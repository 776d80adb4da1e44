#include "engine/localize/argument_check.h"

#include <re2/re2.h>

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace smallfix {
namespace {

std::string_view TrimLeft(std::string_view text) {
  const size_t start = text.find_first_not_of(" \t");
  return start == std::string_view::npos ? std::string_view() : text.substr(start);
}

bool MentionsWord(std::string_view text, const std::string& word) {
  const RE2 pattern(absl::StrCat(R"re(\b)re", RE2::QuoteMeta(word), R"re(\b)re"));
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), pattern);
}

// The raise at `line` tests a parameter of its function: the message or the `if` above it
// (up to four lines up, the raise's own block) names one.
bool RaisesOnParameter(RepoSearch& search, const std::string& file, int line,
                       const std::string& message) {
  std::optional<std::string> text = search.Line(file, line);
  if (!text || !TrimLeft(*text).starts_with("raise")) return false;
  std::string function;
  std::vector<std::string> parameters = search.EnclosingParameters(file, line, &function);
  parameters.erase(std::remove_if(parameters.begin(), parameters.end(),
                                  [](const std::string& p) { return p == "self" || p == "cls"; }),
                   parameters.end());
  if (parameters.empty()) return false;
  std::string condition;
  for (int above = line - 1; above >= 1 && above >= line - 4; --above) {
    std::optional<std::string> previous = search.Line(file, above);
    if (!previous) break;
    const std::string_view trimmed = TrimLeft(*previous);
    if (trimmed.starts_with("def ") || trimmed.starts_with("async def ")) break;
    if (trimmed.starts_with("if ") || trimmed.starts_with("elif ")) {
      condition = *previous;
      break;
    }
  }
  return std::any_of(parameters.begin(), parameters.end(), [&](const std::string& p) {
    return MentionsWord(condition, p) || MentionsWord(message, p);
  });
}

}  // namespace

bool IsArgumentCheck(const Symptom& symptom) {
  static const RE2* const check = new RE2(
      R"re((?i)expected\b.{0,120}\bto be (?:of type|an? |one of)|\bmust be (?:an? |of type|one of|in )|\bmust be\b|invalid argument|\bshould be (?:of type|an? ))re");
  return RE2::PartialMatch(symptom.message, *check);
}

std::optional<size_t> ArgumentCheckCaller(const Symptom& symptom,
                                          const std::vector<FramePlace>& frames,
                                          RepoSearch& search) {
  if (!IsArgumentCheck(symptom) || frames.empty() || frames[0].test) return std::nullopt;
  if (!RaisesOnParameter(search, frames[0].file, frames[0].line, symptom.message)) {
    return std::nullopt;
  }
  size_t caller = 1;
  while (caller < frames.size() && frames[caller].file == frames[0].file) ++caller;
  if (caller >= frames.size() || frames[caller].test) return std::nullopt;
  return caller;
}

}  // namespace smallfix
