#include "engine/source/query.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::Parse;

std::vector<std::string> Texts(const Document& document, const std::vector<QueryMatch>& matches,
                               std::string_view capture) {
  std::vector<std::string> texts;
  for (const QueryMatch& match : matches) {
    if (auto node = match.Get(capture)) texts.emplace_back(document.NodeText(*node));
  }
  return texts;
}

const char* kSource = R"py(
def step(self, grads):
    for p in self.params:
        p.grad.div_(self.world_size)
    dist.all_reduce(grads, group=self.group)
    dist.all_gather_into_tensor(out, grads)
    torch.distributed.barrier()
    if self.rank == 0:
        save(p)
)py";

TEST(QueryTest, CapturesByName) {
  Document document = Parse(kSource);
  absl::StatusOr<Query> query = Query::Compile(
      "(call function: (attribute object: (_) @module attribute: (identifier) @fn)) @call");
  ASSERT_TRUE(query.ok()) << query.status();
  std::vector<QueryMatch> matches = query->Run(document, document.root());
  EXPECT_THAT(Texts(document, matches, "fn"),
              ElementsAre("div_", "all_reduce", "all_gather_into_tensor", "barrier"));
  EXPECT_EQ(query->capture_names().size(), 3u);
}

TEST(QueryTest, EqAndNotEqWithStringsAndCaptures) {
  Document document = Parse(kSource);
  auto eq = Query::Compile(
      R"q(((call function: (attribute object: (identifier) @m attribute: (identifier) @fn)) (#eq? @m "dist")))q");
  ASSERT_TRUE(eq.ok()) << eq.status();
  EXPECT_THAT(Texts(document, eq->Run(document, document.root()), "fn"),
              ElementsAre("all_reduce", "all_gather_into_tensor"));
  auto differs = Query::Compile(
      R"q(((call function: (attribute object: (_) @m attribute: (identifier) @fn)) (#not-eq? @m "dist")))q");
  ASSERT_TRUE(differs.ok());
  EXPECT_THAT(Texts(document, differs->Run(document, document.root()), "fn"),
              ElementsAre("div_", "barrier"));
  // Capture against capture: `x == x`-style comparisons.
  Document same = Parse("a == a\na == b\n");
  auto eq_capture =
      Query::Compile("((comparison_operator (identifier) @l (identifier) @r) @cmp (#eq? @l @r))");
  ASSERT_TRUE(eq_capture.ok()) << eq_capture.status();
  EXPECT_THAT(Texts(same, eq_capture->Run(same, same.root()), "cmp"), ElementsAre("a == a"));
}

TEST(QueryTest, MatchAndAnyOf) {
  Document document = Parse(kSource);
  auto match = Query::Compile(
      R"q(((call function: (attribute attribute: (identifier) @fn)) (#match? @fn "^all_(reduce|gather)")))q");
  ASSERT_TRUE(match.ok()) << match.status();
  EXPECT_THAT(Texts(document, match->Run(document, document.root()), "fn"),
              ElementsAre("all_reduce", "all_gather_into_tensor"));
  auto not_match = Query::Compile(
      R"q(((call function: (attribute attribute: (identifier) @fn)) (#not-match? @fn "_$")))q");
  ASSERT_TRUE(not_match.ok());
  EXPECT_THAT(Texts(document, not_match->Run(document, document.root()), "fn"),
              ElementsAre("all_reduce", "all_gather_into_tensor", "barrier"));
  auto any_of = Query::Compile(R"q(((identifier) @id (#any-of? @id "grads" "out")))q");
  ASSERT_TRUE(any_of.ok());
  EXPECT_THAT(Texts(document, any_of->Run(document, document.root()), "id"),
              ElementsAre("grads", "grads", "out", "grads"));
  auto not_any_of = Query::Compile(
      R"q(((keyword_argument name: (identifier) @k) (#not-any-of? @k "async_op")))q");
  ASSERT_TRUE(not_any_of.ok());
  EXPECT_THAT(Texts(document, not_any_of->Run(document, document.root()), "k"),
              ElementsAre("group"));
}

TEST(QueryTest, RunsOverAByteRange) {
  Document document = Parse(kSource);
  auto query = Query::Compile("(call) @call");
  ASSERT_TRUE(query.ok());
  const size_t line = 5;  // dist.all_gather_into_tensor(out, grads)
  const size_t start = document.lines().LineStart(line);
  const size_t end = document.lines().LineEnd(line);
  std::vector<QueryMatch> matches = query->Run(document, document.root(), start, end);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(document.NodeText(*matches[0].Get("call")), "dist.all_gather_into_tensor(out, grads)");
}

TEST(QueryTest, MalformedQueriesNameThePosition) {
  auto syntax = Query::Compile("(call\n  function: (identifier @fn)");
  ASSERT_FALSE(syntax.ok());
  EXPECT_THAT(syntax.status().message(), HasSubstr("line 2"));
  auto node_type = Query::Compile("(call) @a\n(no_such_node) @b");
  ASSERT_FALSE(node_type.ok());
  EXPECT_THAT(node_type.status().message(), HasSubstr("unknown node type"));
  EXPECT_THAT(node_type.status().message(), HasSubstr("line 2, column 2"));
  EXPECT_THAT(node_type.status().message(), HasSubstr("no_such_node"));
  auto field = Query::Compile("(call nonsense: (identifier))");
  ASSERT_FALSE(field.ok());
  EXPECT_THAT(field.status().message(), HasSubstr("unknown field"));
}

// A field given a predicate is refused before tree-sitter analyses it: inside an alternation
// tree-sitter 0.25 crashes on it (the template loader's fuzzer found this one).
TEST(QueryTest, AFieldOnAPredicateIsAnErrorNotACrash) {
  auto crash =
      Query::Compile("(boolean_operator [left: (.dentifier) @name right: (identifier) @name])");
  ASSERT_FALSE(crash.ok());
  EXPECT_THAT(crash.status().message(), HasSubstr("field `left:` is given a predicate"));
  EXPECT_THAT(crash.status().message(), HasSubstr("line 1, column 20"));
  EXPECT_FALSE(Query::Compile("[left: (#eq? @a \"x\") right: (identifier)] @a").ok());
  // Not a field: a string, a comment, a capture or a predicate's own argument.
  EXPECT_TRUE(Query::Compile("((identifier) @a (#eq? @a \"left: (.x)\"))").ok());
  EXPECT_TRUE(Query::Compile("; left: (.x)\n(boolean_operator left: (identifier) @a)").ok());
}

// `""` as a node would match only the parser's ERROR and MISSING nodes; as a predicate's
// argument it is a string to compare with.
TEST(QueryTest, AnEmptyStringAsANodeIsAnError) {
  auto node = Query::Compile("(call arguments: (argument_list \"\"))");
  ASSERT_FALSE(node.ok());
  EXPECT_THAT(node.status().message(), HasSubstr("empty string as a node"));
  EXPECT_THAT(node.status().message(), HasSubstr("line 1, column 33"));
  EXPECT_FALSE(Query::Compile("[(identifier) (\"\")] @a").ok());
  EXPECT_TRUE(Query::Compile("((string) @a (#eq? @a \"\"))").ok());
  EXPECT_TRUE(Query::Compile("((string) @a (#not-eq? @a \"\\\"\"))").ok());
  EXPECT_TRUE(Query::Compile("; \"\" in a comment\n(\"(\") @a").ok());
}

TEST(QueryTest, BadPredicatesAreErrors) {
  auto unknown = Query::Compile(R"q(((identifier) @x (#frobnicate? @x "y")))q");
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.status().message(), HasSubstr("#frobnicate?"));
  auto regex = Query::Compile(R"q(((identifier) @x (#match? @x "(unclosed")))q");
  ASSERT_FALSE(regex.ok());
  EXPECT_THAT(regex.status().message(), HasSubstr("bad regex"));
  auto arity = Query::Compile(R"q(((identifier) @x (#eq? @x)))q");
  ASSERT_FALSE(arity.ok());
}

}  // namespace
}  // namespace smallfix
