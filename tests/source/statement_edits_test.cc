#include "engine/source/statement_edits.h"

#include "engine/source/syntax.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

using testing::ApplyChecked;
using testing::Parse;

TSNode StatementOn(const Document& document, int line_1based) {
  std::optional<TSNode> statement = StatementAtLine(document, line_1based - 1);
  EXPECT_TRUE(statement.has_value());
  return statement.value_or(TSNode{});
}

TEST(InsertBeforeTest, GuardInsideADecoratedMethod) {
  Document document = Parse(R"py(class Reducer:
    @torch.no_grad()
    def reduce(self, params):
        for p in params:
            p.grad.div_(self.world_size)
)py");
  EXPECT_EQ(ApplyChecked(document, InsertBefore(document, StatementOn(document, 5),
                                                "if p.grad is None:\n    continue")),
            R"py(class Reducer:
    @torch.no_grad()
    def reduce(self, params):
        for p in params:
            if p.grad is None:
                continue
            p.grad.div_(self.world_size)
)py");
}

TEST(InsertBeforeTest, UsesTabsAndCrlfWhenTheFileDoes) {
  Document document = Parse("async def load(path):\r\n\tstate = await read(path)\r\n\treturn state['model']\r\n");
  EXPECT_EQ(ApplyChecked(document, InsertBefore(document, StatementOn(document, 3),
                                                "if state is None:\n    return None")),
            "async def load(path):\r\n\tstate = await read(path)\r\n\tif state is None:\r\n\t\treturn None\r\n\treturn state['model']\r\n");
}

TEST(InsertBeforeTest, RefusesAStatementThatSharesItsLine) {
  Document document = Parse("if ready: launch()\n");
  TSNode call = *StatementAt(document, document.text().find("launch"));
  absl::StatusOr<Edit> edit = InsertBefore(document, call, "check()");
  ASSERT_FALSE(edit.ok());
  EXPECT_EQ(edit.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(InsertAfterTest, AfterACompoundStatementAndAtTheEndOfFile) {
  Document document = Parse("def f(xs):\n    for x in xs:\n        use(x)\n    return xs");
  EXPECT_EQ(ApplyChecked(document, InsertAfter(document, StatementOn(document, 2), "flush()")),
            "def f(xs):\n    for x in xs:\n        use(x)\n    flush()\n    return xs");
  EXPECT_EQ(ApplyChecked(document, InsertAfter(document, StatementOn(document, 4), "# done")),
            "def f(xs):\n    for x in xs:\n        use(x)\n    return xs\n    # done\n");
}

TEST(WrapInIfTest, WrapsStatementsAndLeavesMultilineStringsAlone) {
  Document document = Parse(R"py(def save(state, rank):
    header = """rank
  of the writer"""

    torch.save(state, path(rank))
    log(f"saved {rank}")
)py");
  TSNode first = StatementOn(document, 2);
  TSNode last = StatementOn(document, 6);
  EXPECT_EQ(ApplyChecked(document, WrapInIf(document, first, last, "rank == 0")),
            R"py(def save(state, rank):
    if rank == 0:
        header = """rank
  of the writer"""

        torch.save(state, path(rank))
        log(f"saved {rank}")
)py");
}

TEST(WrapInTryTest, AddsTheHandlerAtTheStatementsLevel) {
  Document document = Parse("def setup():\n  from torch._six import inf\n  return inf\n");
  TSNode import = StatementOn(document, 2);
  EXPECT_EQ(ApplyChecked(document, WrapInTry(document, import, import, "ImportError",
                                             "from torch import inf")),
            "def setup():\n  try:\n    from torch._six import inf\n  except ImportError:\n    "
            "from torch import inf\n  return inf\n");
}

TEST(WrapInIfTest, NestedFunctionsAndNonSiblingsAreRefused) {
  Document document = Parse("def outer():\n    def inner():\n        return 1\n    return inner\n");
  TSNode inner_return = StatementOn(document, 3);
  TSNode outer_return = StatementOn(document, 4);
  EXPECT_FALSE(WrapInIf(document, inner_return, outer_return, "x").ok());
  EXPECT_EQ(ApplyChecked(document, WrapInIf(document, inner_return, inner_return, "flag")),
            "def outer():\n    def inner():\n        if flag:\n            return 1\n    return inner\n");
}

}  // namespace
}  // namespace smallfix
