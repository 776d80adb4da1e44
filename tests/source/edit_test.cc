#include "engine/source/edit.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

using ::testing::HasSubstr;
using testing::Parse;

TEST(EditSetTest, AppliesInOnePassWhateverTheOrderAdded) {
  EditSet edits;
  ASSERT_TRUE(edits.Add({8, 9, "y"}).ok());
  ASSERT_TRUE(edits.Add({0, 1, "z"}).ok());
  ASSERT_TRUE(edits.Add({4, 4, "+"}).ok());
  EXPECT_EQ(*edits.Apply("x = 1 + x"), "z = +1 + y");
}

TEST(EditSetTest, InsertionsAtOnePlaceKeepTheirOrder) {
  EditSet edits;
  ASSERT_TRUE(edits.Add({0, 0, "a"}).ok());
  ASSERT_TRUE(edits.Add({0, 0, "b"}).ok());
  EXPECT_EQ(*edits.Apply("c"), "abc");
}

// Found by tests/fuzz/edit_fuzzer: the insertion, added after the replacement that starts
// where it does, was applied after it, and the text between them was copied twice.
TEST(EditSetTest, AnInsertionGoesBeforeAReplacementAtItsOffset) {
  EditSet edits;
  ASSERT_TRUE(edits.Add({2, 4, "XY"}).ok());
  ASSERT_TRUE(edits.Add({2, 2, "i"}).ok());
  EXPECT_EQ(*edits.Apply("abcdef"), "abiXYef");
}

TEST(EditSetTest, RejectsOverlaps) {
  EditSet edits;
  ASSERT_TRUE(edits.Add({2, 6, "x"}).ok());
  absl::Status overlap = edits.Add({5, 8, "y"});
  EXPECT_EQ(overlap.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(overlap.message(), HasSubstr("overlaps"));
  EXPECT_FALSE(edits.Add({3, 3, "inside"}).ok());
  EXPECT_FALSE(edits.Add({0, 10, "around"}).ok());
  EXPECT_TRUE(edits.Add({6, 6, "at the end"}).ok());  // touching is fine
  EXPECT_TRUE(edits.Add({0, 2, "before"}).ok());
  EXPECT_FALSE(edits.Add({4, 3, "backwards"}).ok());
}

TEST(EditSetTest, EditPastTheEndIsAnError) {
  EditSet edits;
  ASSERT_TRUE(edits.Add({3, 10, ""}).ok());
  EXPECT_FALSE(edits.Apply("abc").ok());
}

TEST(ApplyEditsTest, ReparsesTheResult) {
  Document document = Parse("x = compute()\n");
  EditSet edits;
  ASSERT_TRUE(edits.Add({4, 11, "recompute"}).ok());
  absl::StatusOr<Document> edited = ApplyEdits(document, edits);
  ASSERT_TRUE(edited.ok()) << edited.status();
  EXPECT_EQ(edited->text(), "x = recompute()\n");
  EXPECT_EQ(edited->path(), "pkg/mod.py");
}

TEST(ApplyEditsTest, RejectsAnEditThatBreaksTheSyntax) {
  Document document = Parse("if ready:\n    go()\n");
  EditSet edits;
  ASSERT_TRUE(edits.Add({8, 9, ""}).ok());  // drop the colon
  absl::StatusOr<Document> edited = ApplyEdits(document, edits);
  ASSERT_FALSE(edited.ok());
  EXPECT_THAT(edited.status().message(), HasSubstr("breaks the syntax"));
}

TEST(ApplyEditsTest, RepairsAFileThatIsBrokenElsewhere) {
  Document document = Parse("def broken(:\n    pass\n\nvalue = grads.sum()\n");
  ASSERT_GT(document.CountSyntaxErrors(), 0);
  const size_t at = document.text().find("value");
  EditSet edits;
  ASSERT_TRUE(edits.Add({at, at, "if grads is not None:\n    "}).ok());
  absl::StatusOr<Document> edited = ApplyEdits(document, edits);
  ASSERT_TRUE(edited.ok()) << edited.status();
}

}  // namespace
}  // namespace smallfix
