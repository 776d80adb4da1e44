#include "engine/source/tree_key.h"

#include <gtest/gtest.h>

#include <string>

namespace smallfix {
namespace {

bool Same(const std::string& a, const std::string& b) { return TreeKey("m.py", a) == TreeKey("m.py", b); }

constexpr char kBase[] = R"(def scale(x, factor=2):
    if x is None:
        return 0
    return f(x, "mean") * factor
)";

// What Python's ast leaves out, the key leaves out too.
TEST(TreeKeyTest, LayoutCommentsParenthesesCommasAndQuotesDoNotCount) {
  EXPECT_TRUE(Same(kBase, kBase));
  EXPECT_TRUE(Same(kBase, R"(# a header comment
def scale(x,   factor = 2,):


    if (x is None):  # nothing to scale
        return 0
    # the product
    return (f(
        x,
        'mean',
    ) * factor)
)"));
  EXPECT_TRUE(Same("a = 1; b = 2\n", "a = 1\nb = 2\n"));
  EXPECT_TRUE(Same("x = [1,\n     2]\n", "x = [1, 2,]\n"));
  EXPECT_TRUE(Same("y = a + \\\n    b\n", "y = a + b\n"));
}

// What Python's ast keeps, the key keeps.
TEST(TreeKeyTest, NamesLiteralsOperatorsAndStructureCount) {
  EXPECT_FALSE(Same(kBase, R"(def scale(x, factor=2):
    if x is not None:
        return 0
    return f(x, "mean") * factor
)"));
  EXPECT_FALSE(Same("y = a < b\n", "y = a <= b\n"));
  EXPECT_FALSE(Same("f(a, b=1)\n", "f(a, c=1)\n"));
  EXPECT_FALSE(Same("f(a, b=1)\n", "f(a, b=2)\n"));
  EXPECT_FALSE(Same("s = 'mean'\n", "s = 'sum'\n"));
  EXPECT_FALSE(Same("s = 'x'\n", "s = f'x'\n"));
  EXPECT_FALSE(Same("x = (a, b)\n", "x = [a, b]\n"));
  EXPECT_FALSE(Same("x = (a,)\n", "x = (a)\n"));  // a tuple, not parentheses
  EXPECT_FALSE(Same("a[1:]\n", "a[:1]\n"));
  EXPECT_FALSE(Same("if a:\n    b()\nc()\n", "if a:\n    b()\n    c()\n"));  // indentation is structure
  EXPECT_FALSE(Same("x = 1\n", "x = 1\ny = 2\n"));
}

TEST(TreeKeyTest, DeeplyNestedExpressionsDoNotOverflow) {
  std::string chain = "x = 0";
  for (int i = 0; i < 20000; ++i) chain += " + a";
  EXPECT_TRUE(Same(chain + "\n", "x = (" + chain.substr(4) + ")\n"));
  EXPECT_FALSE(Same(chain + "\n", chain + " + b\n"));
}

}  // namespace
}  // namespace smallfix
