#include "engine/source/utf8.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

using ::testing::HasSubstr;

TEST(Utf8Test, AcceptsAsciiAndMultibyte) {
  EXPECT_TRUE(ValidateUtf8("x = 1\n").ok());
  EXPECT_TRUE(ValidateUtf8("name = \"Gr\xC3\xBC\xC3\x9F\xE2\x82\xAC \xF0\x9F\x9A\x80\"\n").ok());
  EXPECT_TRUE(ValidateUtf8("").ok());
}

TEST(Utf8Test, RejectsLatin1AndNamesTheLine) {
  absl::Status status = ValidateUtf8("a = 1\nb = 'caf\xE9'\n");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("line 2"));
  EXPECT_THAT(status.message(), HasSubstr("0xE9"));
}

TEST(Utf8Test, RejectsOverlongsSurrogatesTruncationAndOutOfRange) {
  EXPECT_FALSE(ValidateUtf8("\xC0\xAF").ok());              // overlong '/'
  EXPECT_FALSE(ValidateUtf8("\xE0\x80\xAF").ok());          // overlong
  EXPECT_FALSE(ValidateUtf8("\xED\xA0\x80").ok());          // UTF-16 surrogate
  EXPECT_FALSE(ValidateUtf8("\xF4\x90\x80\x80").ok());      // past U+10FFFF
  EXPECT_FALSE(ValidateUtf8("ok \xE2\x82").ok());           // truncated at end
  EXPECT_FALSE(ValidateUtf8("\x80").ok());                  // lone continuation byte
  EXPECT_FALSE(ValidateUtf8(std::string("\xFF\xFE", 2)).ok());  // UTF-16 BOM
}

TEST(ReplaceInvalidUtf8, ReplacesEachBadByteAndKeepsGoodSequences) {
  size_t replaced = 0;
  EXPECT_EQ(ReplaceInvalidUtf8("caf\xe9 \xc3\xa9 \xff!", &replaced),
            "caf\xEF\xBF\xBD \xc3\xa9 \xEF\xBF\xBD!");
  EXPECT_EQ(replaced, 2u);
  EXPECT_EQ(ReplaceInvalidUtf8("plain", &replaced), "plain");
  EXPECT_EQ(replaced, 0u);
  EXPECT_TRUE(ValidateUtf8(ReplaceInvalidUtf8("\xed\xa0\x80\xf4\x90\x80\x80")).ok());
}

}  // namespace
}  // namespace smallfix
