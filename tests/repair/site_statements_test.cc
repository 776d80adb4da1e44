#include "engine/repair/site_statements.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

Document Parse(const std::string& text) {
  absl::StatusOr<Document> document = Document::Parse("pkg/mod.py", text);
  EXPECT_TRUE(document.ok()) << document.status();
  return *std::move(document);
}

std::string Apply(const std::string& text, const std::vector<Edit>& list) {
  EditSet edits;
  for (const Edit& edit : list) EXPECT_TRUE(edits.Add(edit).ok());
  absl::StatusOr<std::string> out = edits.Apply(text);
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *out : "";
}

TEST(StatementMovesTest, MovesAStatementBeforeTheOtherSiteAtItsIndentation) {
  const std::string text =
      "from os import path\n"
      "\n"
      "\n"
      "def f(a):\n"
      "    if a:\n"
      "        return path.join(a)\n";
  const Document document = Parse(text);
  const std::vector<StatementMove> moves = StatementMoves(document, {1, 5});
  // The `if` statement does not move: its body's line is not a site.
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0].from_line, 1);
  EXPECT_EQ(moves[0].to_line, 5);
  EXPECT_EQ(Apply(text, moves[0].edits),
            "\n"
            "\n"
            "def f(a):\n"
            "    from os import path\n"
            "    if a:\n"
            "        return path.join(a)\n");
}

TEST(StatementMovesTest, NoMoveToWhereTheStatementAlreadyIs) {
  const std::string text =
      "def f(a):\n"
      "    b = a\n"
      "    c = b\n";
  const Document document = Parse(text);
  // `b = a` before `c = b` is where it is; `c = b` before `b = a` is a real move.
  const std::vector<StatementMove> moves = StatementMoves(document, {2, 3});
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0].from_line, 3);
  EXPECT_EQ(moves[0].to_line, 2);
}

// A blank site line is where realfix puts an insertion at the end of the block above it: the
// statement moves to after that block's last statement, at its indentation.
TEST(StatementMovesTest, MovesToTheEndOfTheBlockAboveABlankSiteLine) {
  const std::string text =
      "def step(self, loss):\n"
      "    self.opt.zero_grad()\n"
      "    loss.backward()\n"
      "    with span():\n"
      "        self.opt.step()\n"
      "\n"
      "    self.version += 1\n";
  const Document document = Parse(text);
  const std::vector<StatementMove> moves = StatementMoves(document, {2, 6});
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0].from_line, 2);
  EXPECT_EQ(moves[0].to_line, 6);
  EXPECT_EQ(Apply(text, moves[0].edits),
            "def step(self, loss):\n"
            "    loss.backward()\n"
            "    with span():\n"
            "        self.opt.step()\n"
            "        self.opt.zero_grad()\n"
            "\n"
            "    self.version += 1\n");
  // Right below the statement itself is no move.
  const std::string last = "def f():\n    a = 1\n    b = 2\n\n";
  EXPECT_TRUE(StatementMoves(Parse(last), {3, 4}).empty());
}

// A move that puts a value where code needs it: up, before a read of what it assigns; down,
// after an assignment of what it reads. The reverse moves are not.
TEST(StatementMovesTest, SaysWhetherAMoveFollowsTheDataFlow) {
  const std::string up =
      "def f(self):\n"
      "    self.a = 1\n"
      "    use(self.b)\n"
      "    self.b = 2\n";
  std::map<std::pair<int, int>, bool> flow;
  for (const StatementMove& move : StatementMoves(Parse(up), {2, 4})) flow[{move.from_line, move.to_line}] = move.data_flow;
  EXPECT_THAT(flow, testing::UnorderedElementsAre(testing::Pair(std::pair(4, 2), true), testing::Pair(std::pair(2, 4), false)));

  const std::string down =
      "def g(model, amp):\n"
      "    model = wrap(model)\n"
      "    if amp:\n"
      "        model, opt = init(model)\n"
      "    run(model)\n";
  flow.clear();
  for (const StatementMove& move : StatementMoves(Parse(down), {2, 5})) flow[{move.from_line, move.to_line}] = move.data_flow;
  EXPECT_THAT(flow, testing::UnorderedElementsAre(testing::Pair(std::pair(2, 5), true), testing::Pair(std::pair(5, 2), false)));
  // `model.x` is no read of `model.xs`, nor `other.model` of `model`.
  const std::string names =
      "def h(self, other):\n"
      "    use(self.xs, other.model)\n"
      "    self.x = 1\n"
      "    model = 2\n";
  for (const StatementMove& move : StatementMoves(Parse(names), {2, 3, 4})) {
    if (move.to_line == 2) EXPECT_FALSE(move.data_flow) << move.from_line;
  }
}

TEST(StatementMovesTest, OnlyAnImportMovesBeforeADef) {
  const std::string text =
      "import os\n"
      "x = 1\n"
      "\n"
      "def f():\n"
      "    return x\n";
  const Document document = Parse(text);
  const std::vector<StatementMove> moves = StatementMoves(document, {1, 2, 4});
  std::vector<std::pair<int, int>> seen;
  for (const StatementMove& move : moves) seen.push_back({move.from_line, move.to_line});
  // `import os` before the def (before `x = 1` is where it is); `x = 1` before the import, not the def.
  EXPECT_THAT(seen, testing::UnorderedElementsAre(std::pair(1, 4), std::pair(2, 1)));
}

TEST(SiteStatementRemovalsTest, RemovesWholeStatementsAcrossCommentsAndBlankLines) {
  const std::string text =
      "import os\n"
      "\n"
      "# a note\n"
      "os.environ.setdefault(\"A\", \"1\")\n"
      "\n"
      "def f(a):\n"
      "    if a:\n"
      "        raise ValueError(\n"
      "            \"no\"\n"
      "        )\n"
      "    return a\n";
  const Document document = Parse(text);
  // The import and the call (the comment line is no site, as in realfix), and the whole `if`.
  EXPECT_EQ(Apply(text, SiteStatementRemovals(document, {1, 4, 7, 8, 9, 10})),
            "\n"
            "# a note\n"
            "\n"
            "def f(a):\n"
            "    return a\n");
  // An `if` whose body is not all sites stays; so does a statement sharing its line.
  EXPECT_TRUE(SiteStatementRemovals(document, {7, 8}).empty());
  const std::string shared = "x = 1; y = 2\nz = 3\n";
  EXPECT_TRUE(SiteStatementRemovals(Parse(shared), {1}).empty());
}

}  // namespace
}  // namespace smallfix
