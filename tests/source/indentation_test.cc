#include "engine/source/indentation.h"

#include "gtest/gtest.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

using testing::Parse;

TEST(IndentUnitTest, ReadsTheFilesOwnUnit) {
  EXPECT_EQ(IndentUnit(Parse("def f():\n    return 1\n")), "    ");
  EXPECT_EQ(IndentUnit(Parse("def f():\n  return 1\n")), "  ");
  EXPECT_EQ(IndentUnit(Parse("def f():\n\treturn 1\n")), "\t");
  EXPECT_EQ(IndentUnit(Parse("x = 1\n")), "    ");
  // One-line blocks say nothing about the unit; the nested def does.
  EXPECT_EQ(IndentUnit(Parse("if x: y()\nclass A:\n   def f(self):\n      pass\n")), "   ");
}

TEST(ReindentTest, LaysCodeOutAtABaseWithTheFilesUnit) {
  EXPECT_EQ(Reindent("if x is None:\n    return\n", "    ", "    ", "\n"),
            "    if x is None:\n        return\n");
  EXPECT_EQ(Reindent("if x is None:\n    return", "\t", "\t", "\r\n"),
            "\tif x is None:\r\n\t\treturn\r\n");
  // Template text indented as a whole is dedented first; blank lines stay empty.
  EXPECT_EQ(Reindent("        try:\n            a()\n\n        except E:\n            pass\n", "  ",
                     "  ", "\n"),
            "  try:\n    a()\n\n  except E:\n    pass\n");
}

}  // namespace
}  // namespace smallfix
