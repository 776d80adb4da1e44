#include "engine/localize/failure_text.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace smallfix {
namespace {

std::vector<std::string> Lines(std::string_view text) {
  FailureTextReader reader(text);
  std::vector<std::string> lines;
  std::string line;
  while (reader.Next(&line)) lines.push_back(line);
  return lines;
}

TEST(FailureTextTest, StripsAnsiAndCrlf) {
  EXPECT_THAT(Lines("\x1b[31mTraceback (most recent call last):\x1b[0m\r\n"
                    "  File \"\x1b[36m/a/b.py\x1b[0m\", line \x1b[33m3\x1b[0m, in f\r\n"
                    "\x1b]0;title\x07KeyError: 'x'\r\n"),
              ::testing::ElementsAre("Traceback (most recent call last):",
                                     "  File \"/a/b.py\", line 3, in f", "KeyError: 'x'"));
}

TEST(FailureTextTest, LoneCarriageReturnEndsALine) {
  EXPECT_THAT(Lines("10%\r50%\rdone\n"), ::testing::ElementsAre("10%", "50%", "done"));
}

TEST(FailureTextTest, MarkdownQuotesAndFencesButNotPytestMarker) {
  EXPECT_THAT(Lines("> ```\n> Traceback (most recent call last):\n>   File \"x.py\", line 1, in f\n"
                    ">\n> ```\n"),
              ::testing::ElementsAre("", "Traceback (most recent call last):",
                                     "  File \"x.py\", line 1, in f", "", ""));
  // pytest's single '>' line marks the failing source line; it is not a quote.
  EXPECT_THAT(Lines("    def f():\n>       g()\nE       KeyError: 1\n"),
              ::testing::ElementsAre("    def f():", ">       g()", "E       KeyError: 1"));
}

TEST(FailureTextTest, CutsHugeLines) {
  const std::string line(100000, 'x');
  const std::vector<std::string> lines = Lines(line + "\nend\n");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].size(), FailureTextReader::kMaxLineBytes);
  EXPECT_EQ(lines[1], "end");
}

TEST(FailureTextTest, LooksBinary) {
  EXPECT_FALSE(LooksBinary("Traceback (most recent call last):\n  héllo ✓\n"));
  std::string binary;
  for (int i = 0; i < 4096; ++i) binary.push_back(static_cast<char>(i * 7 % 256));
  EXPECT_TRUE(LooksBinary(binary));
  EXPECT_TRUE(LooksBinary(std::string(100, '\0')));
  EXPECT_FALSE(LooksBinary(""));
}

TEST(FailureTextTest, TailAtLineStart) {
  EXPECT_EQ(TailAtLineStart("aaa\nbbb\nccc\n", 6), "ccc\n");
  EXPECT_EQ(TailAtLineStart("short", 100), "short");
}

}  // namespace
}  // namespace smallfix
