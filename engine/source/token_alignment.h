#ifndef SMALLFIX_ENGINE_SOURCE_TOKEN_ALIGNMENT_H_
#define SMALLFIX_ENGINE_SOURCE_TOKEN_ALIGNMENT_H_

#include <tree_sitter/api.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/source/document.h"

namespace smallfix {

// One token of a syntax tree: a leaf, or a whole string literal (its quotes and text are one
// token, as Python's tokenizer has it), or with `arguments_as_units` a whole argument of a
// call. Comments are not tokens.
struct SyntaxToken {
  std::string text;  // an argument's: its tokens on one line (JoinTokens)
  std::string_view
      type;  // the node's type: "identifier", "(", "string", ...; "argument" for a unit
  uint32_t start = 0;
  uint32_t end = 0;
};

// The tokens of `node` in source order; at most `limit` (more: an empty list, too long to
// compare). With `arguments_as_units`, each argument of a call of more than one token is one
// token: two sibling calls then line up argument by argument (`False` for `self.use_bias`),
// not by the tokens inside them.
std::vector<SyntaxToken> TokensOf(const Document& document, TSNode node, size_t limit = 200,
                                  bool arguments_as_units = false);

// A token-level alignment of two sequences with the fewest insertions, deletions and
// substitutions (Levenshtein over token texts; only a word, number or string may stand for
// another, punctuation is inserted or deleted): `distance`, and for each token of `a` the
// index of the equal token of `b` it is matched to, or -1.
struct TokenAlignment {
  size_t distance = 0;
  std::vector<int> match_of_a;
};
TokenAlignment AlignTokens(const std::vector<SyntaxToken>& a, const std::vector<SyntaxToken>& b);

// A maximal run where two aligned sequences differ: a's tokens [a_begin, a_end) stand where
// b has [b_begin, b_end) (either may be empty, not both).
struct TokenRegion {
  size_t a_begin = 0, a_end = 0, b_begin = 0, b_end = 0;
};
std::vector<TokenRegion> DifferingRegions(const TokenAlignment& alignment, size_t b_size);

// The text of tokens [begin, end) with comments and line breaks dropped: one space where the
// source had any space between two tokens, none where it had none (a multi-line call joined
// onto one line).
std::string JoinTokens(const Document& document, const std::vector<SyntaxToken>& tokens,
                       size_t begin, size_t end);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SOURCE_TOKEN_ALIGNMENT_H_
