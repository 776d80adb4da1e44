// Token alignment: the tokens of a statement, their alignment with another's, the regions
// where they differ, and a span's text on one line.
#include "engine/source/token_alignment.h"

#include "engine/source/syntax.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

std::vector<SyntaxToken> StatementTokens(const Document& document, int line) {
  return TokensOf(document, *StatementAtLine(document, line - 1));
}

TEST(TokenAlignmentTest, StringsAreOneTokenAndCommentsNone) {
  absl::StatusOr<Document> doc = Document::Parse("m.py", "f(a, 'x y')  # note\n");
  ASSERT_TRUE(doc.ok());
  std::vector<SyntaxToken> tokens = StatementTokens(*doc, 1);
  std::vector<std::string> texts;
  for (const SyntaxToken& t : tokens) texts.emplace_back(t.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"f", "(", "a", ",", "'x y'", ")"}));
  EXPECT_EQ(tokens[0].type, "identifier");
}

TEST(TokenAlignmentTest, RegionsOfASubstitutionAndADeletion) {
  absl::StatusOr<Document> doc = Document::Parse("m.py", "f(a, False, c, d)\nf(a, self.b, c)\n");
  ASSERT_TRUE(doc.ok());
  const std::vector<SyntaxToken> a = StatementTokens(*doc, 1), b = StatementTokens(*doc, 2);
  const TokenAlignment alignment = AlignTokens(a, b);
  // False -> self . b (one word for another, two insertions), `, d` dropped; `, c` stays
  // matched between them (a comma is never aligned with a name).
  EXPECT_EQ(alignment.distance, 5u);
  const std::vector<TokenRegion> regions = DifferingRegions(alignment, b.size());
  ASSERT_EQ(regions.size(), 2u);
  EXPECT_EQ(JoinTokens(*doc, a, regions[0].a_begin, regions[0].a_end), "False");
  EXPECT_EQ(JoinTokens(*doc, b, regions[0].b_begin, regions[0].b_end), "self.b");
  EXPECT_EQ(JoinTokens(*doc, a, regions[1].a_begin, regions[1].a_end), ", d");
  EXPECT_EQ(regions[1].b_begin, regions[1].b_end);
}

TEST(TokenAlignmentTest, JoinsAMultiLineCallOntoOneLine) {
  absl::StatusOr<Document> doc = Document::Parse("m.py", "f(\n    a,  # first\n    b,\n)\n");
  ASSERT_TRUE(doc.ok());
  const std::vector<SyntaxToken> tokens = StatementTokens(*doc, 1);
  EXPECT_EQ(JoinTokens(*doc, tokens, 0, tokens.size()), "f(a, b,)");
}

TEST(TokenAlignmentTest, TooLongGivesNoTokens) {
  absl::StatusOr<Document> doc = Document::Parse("m.py", "f(a, b, c)\n");
  ASSERT_TRUE(doc.ok());
  EXPECT_TRUE(TokensOf(*doc, *StatementAtLine(*doc, 0), 3).empty());
  EXPECT_EQ(TokensOf(*doc, *StatementAtLine(*doc, 0), 8).size(), 8u);
}

}  // namespace
}  // namespace smallfix
