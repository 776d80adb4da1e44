#include "engine/source/line_index.h"

#include "gtest/gtest.h"

namespace smallfix {
namespace {

TEST(LineIndexTest, MapsBytesToLinesAndBack) {
  const std::string text = "ab\ncd\r\n\nlast";
  LineIndex index(text);
  ASSERT_EQ(index.line_count(), 4);
  EXPECT_EQ(index.Line(0), "ab");
  EXPECT_EQ(index.Line(1), "cd");  // the CR belongs to the terminator
  EXPECT_EQ(index.Line(2), "");
  EXPECT_EQ(index.Line(3), "last");
  EXPECT_EQ(index.ToPosition(4), (Position{1, 1}));
  EXPECT_EQ(index.ToPosition(text.size()), (Position{3, 4}));
  EXPECT_EQ(index.ToByte({1, 1}), 4u);
  EXPECT_EQ(index.LineEnd(1), 5u);
  EXPECT_EQ(index.LineEndWithNewline(1), 7u);
  EXPECT_FALSE(index.ToByte({9, 0}).has_value());
  EXPECT_FALSE(index.ToByte({0, 10}).has_value());
}

TEST(LineIndexTest, EmptyTextHasOneEmptyLine) {
  LineIndex index("");
  EXPECT_EQ(index.line_count(), 1);
  EXPECT_EQ(index.Line(0), "");
  EXPECT_EQ(index.ToPosition(0), (Position{0, 0}));
}

TEST(LineIndexTest, TrailingNewlineStartsAnEmptyLastLine) {
  LineIndex index("x\n");
  EXPECT_EQ(index.line_count(), 2);
  EXPECT_EQ(index.ToPosition(2), (Position{1, 0}));
}

}  // namespace
}  // namespace smallfix
