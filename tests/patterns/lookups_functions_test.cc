// Look-ups about the enclosing def: `list-accumulator`.
#include <string>
#include <vector>

#include "engine/patterns/lookups/lookup.h"
#include "engine/source/syntax.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

// Runs list-accumulator for `name` at the statement on `line` (1-based).
absl::Status Accumulator(const std::string& code, int line, const std::string& name) {
  static std::vector<Document>* keep = new std::vector<Document>();
  absl::StatusOr<Document> parsed = Document::Parse("m.py", code);
  if (!parsed.ok()) return parsed.status();
  keep->push_back(*std::move(parsed));
  MatchState state;
  state.document = &keep->back();
  std::optional<TSNode> statement = StatementAtLine(keep->back(), line - 1);
  if (!statement) return absl::InvalidArgumentError("no statement on that line");
  state.statement = *statement;
  std::vector<MatchState> more;
  return FindLookupSpec("list-accumulator")->run({{"name", name}}, MatchContext{}, state, more);
}

TEST(ListAccumulatorTest, AnEmptyListBeforeTheOutermostLoop) {
  const std::string code =
      "def f(groups):\n"
      "    out = []\n"
      "    for group in groups:\n"
      "        for m in group:\n"
      "            out = g(m)\n"
      "    return out\n";
  EXPECT_TRUE(Accumulator(code, 5, "out").ok());
  EXPECT_TRUE(absl::IsNotFound(Accumulator(code, 5, "other")));
}

TEST(ListAccumulatorTest, NotOutsideALoopNorForAListSetInsideIt) {
  const std::string code =
      "def f(xs):\n"
      "    out = list()\n"
      "    out = g(xs)\n"
      "    for x in xs:\n"
      "        res = []\n"
      "        res = g(x)\n"
      "    return out\n";
  EXPECT_TRUE(absl::IsNotFound(Accumulator(code, 3, "out")));
  EXPECT_TRUE(absl::IsNotFound(Accumulator(code, 6, "res")));
}

TEST(ListAccumulatorTest, NotAListOfANestedDef) {
  const std::string code =
      "def f(xs):\n"
      "    def inner():\n"
      "        out = []\n"
      "    while xs:\n"
      "        out = xs.pop()\n";
  EXPECT_TRUE(absl::IsNotFound(Accumulator(code, 5, "out")));
}

}  // namespace
}  // namespace smallfix
