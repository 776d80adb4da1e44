#include "engine/source/token_alignment.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "engine/source/syntax.h"

namespace smallfix {

namespace {

// TokensOf's walk, by recursion so that a node's parent type is at hand (ts_node_parent costs a
// walk from the root). False once `limit` is passed.
bool CollectTokens(const Document& document, TSNode node, bool in_arguments, size_t limit,
                   bool units, std::vector<SyntaxToken>& tokens) {
  if (IsComment(node)) return true;
  const uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
  if (units && in_arguments && ts_node_is_named(node)) {
    std::vector<SyntaxToken> inner;
    if (!CollectTokens(document, node, false, limit, false, inner)) return false;
    if (inner.size() > 1) {
      if (tokens.size() == limit) return false;
      tokens.push_back({JoinTokens(document, inner, 0, inner.size()), "argument", start, end});
      return true;
    }
  }
  const uint32_t children = ts_node_child_count(node);
  if (children == 0 || IsType(node, "string")) {
    if (end == start) return true;  // a MISSING node has no text
    if (tokens.size() == limit) return false;
    tokens.push_back({std::string(document.NodeText(node)), ts_node_type(node), start, end});
    return true;
  }
  const bool arguments = IsType(node, "argument_list");
  for (uint32_t i = 0; i < children; ++i) {
    if (!CollectTokens(document, ts_node_child(node, i), arguments, limit, units, tokens))
      return false;
  }
  return true;
}

}  // namespace

std::vector<SyntaxToken> TokensOf(const Document& document, TSNode node, size_t limit,
                                  bool arguments_as_units) {
  std::vector<SyntaxToken> tokens;
  if (!CollectTokens(document, node, false, limit, arguments_as_units, tokens)) tokens.clear();
  return tokens;
}

namespace {

// A name or literal (a word, a number, a string), as opposed to punctuation and operators.
bool IsWord(const SyntaxToken& token) {
  if (token.type == "argument") return true;
  const char c = token.text.empty() ? ' ' : token.text.front();
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '"' || c == '\'' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// The cost of aligning two tokens, in steps of kStep: 0 when equal; one step (and one more
// unit, so that of two alignments of the same cost the one with more matched tokens wins) for
// one word written for another; else two steps (a deletion and an insertion): a comma never
// stands for a name, so the alignment keeps a program's punctuation in step.
constexpr size_t kStep = 1024;
size_t SubstitutionCost(const SyntaxToken& a, const SyntaxToken& b) {
  if (a.text == b.text) return 0;
  return IsWord(a) && IsWord(b) ? kStep + 1 : 2 * kStep;
}

}  // namespace

TokenAlignment AlignTokens(const std::vector<SyntaxToken>& a, const std::vector<SyntaxToken>& b) {
  const size_t n = a.size(), m = b.size();
  // Full table (statements are short: TokensOf caps them), for the backtrace.
  std::vector<size_t> cost((n + 1) * (m + 1));
  auto at = [&](size_t i, size_t j) -> size_t& { return cost[i * (m + 1) + j]; };
  for (size_t i = 0; i <= n; ++i) at(i, 0) = i * kStep;
  for (size_t j = 0; j <= m; ++j) at(0, j) = j * kStep;
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      at(i, j) = std::min({at(i - 1, j) + kStep, at(i, j - 1) + kStep,
                           at(i - 1, j - 1) + SubstitutionCost(a[i - 1], b[j - 1])});
    }
  }
  TokenAlignment out;
  out.distance = at(n, m) / kStep;
  out.match_of_a.assign(n, -1);
  for (size_t i = n, j = m; i > 0 || j > 0;) {
    if (i > 0 && j > 0 && a[i - 1].text == b[j - 1].text && at(i, j) == at(i - 1, j - 1)) {
      out.match_of_a[i - 1] = static_cast<int>(j - 1);
      --i, --j;
    } else if (i > 0 && j > 0 &&
               at(i, j) == at(i - 1, j - 1) + SubstitutionCost(a[i - 1], b[j - 1])) {
      --i, --j;
    } else if (i > 0 && at(i, j) == at(i - 1, j) + kStep) {
      --i;
    } else {
      --j;
    }
  }
  return out;
}

std::vector<TokenRegion> DifferingRegions(const TokenAlignment& alignment, size_t b_size) {
  std::vector<TokenRegion> regions;
  size_t i = 0, j = 0;
  const size_t n = alignment.match_of_a.size();
  while (i < n || j < b_size) {
    // The next matched pair at or after (i, j), or the ends.
    size_t next_i = i;
    while (next_i < n && alignment.match_of_a[next_i] < 0) ++next_i;
    const size_t next_j = next_i < n ? static_cast<size_t>(alignment.match_of_a[next_i]) : b_size;
    if (next_i > i || next_j > j) regions.push_back({i, next_i, j, next_j});
    if (next_i == n) break;
    i = next_i + 1;
    j = next_j + 1;
  }
  return regions;
}

std::string JoinTokens(const Document& document, const std::vector<SyntaxToken>& tokens,
                       size_t begin, size_t end) {
  std::string out;
  for (size_t k = begin; k < end; ++k) {
    if (k > begin && tokens[k].start > tokens[k - 1].end) {
      const std::string_view gap =
          document.text().substr(tokens[k - 1].end, tokens[k].start - tokens[k - 1].end);
      // A gap of spaces reads as one space; a line break or a comment too, except just inside
      // brackets and before a comma (`f(\n  a,\n)` -> `f(a,)`).
      const bool broken = gap.find_first_of("\n#\\") != std::string_view::npos;
      const std::string_view before = tokens[k - 1].text, after = tokens[k].text;
      const bool tight = before == "(" || before == "[" || before == "{" || after == ")" ||
                         after == "]" || after == "}" || after == ",";
      if (!broken || !tight) out += ' ';
    }
    out += tokens[k].text;
  }
  return out;
}

}  // namespace smallfix
