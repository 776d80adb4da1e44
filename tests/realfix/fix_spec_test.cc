#include "engine/bench/realfix/fix_spec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace smallfix::realfix {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kGood[] =
    R"({"id": "acc-1", "repo": "huggingface/accelerate", "fix_commit": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", )"
    R"("parent_commit": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "file": "src/accelerate/state.py", )"
    R"("fault_lines": [12, 14], "family": "guard", "description": "guard a missing process group", )"
    R"("symptom": "AttributeError: 'NoneType' object has no attribute 'rank'", "split": "dev"})";

std::string With(const std::string& from, const std::string& to) {
  std::string line = kGood;
  const size_t at = line.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return line.replace(at, from.size(), to);
}

TEST(FixSpecTest, ParsesEveryField) {
  absl::StatusOr<std::vector<FixSpec>> fixes = ParseFixes(std::string("# a comment\n\n") + kGood + "\n", "f.jsonl");
  ASSERT_TRUE(fixes.ok()) << fixes.status();
  ASSERT_EQ(fixes->size(), 1u);
  const FixSpec& fix = (*fixes)[0];
  EXPECT_EQ(fix.id, "acc-1");
  EXPECT_EQ(fix.repo, "huggingface/accelerate");
  EXPECT_EQ(fix.parent_commit, std::string(40, 'b'));
  EXPECT_EQ(fix.file, "src/accelerate/state.py");
  EXPECT_THAT(fix.fault_lines, ElementsAre(12, 14));
  EXPECT_EQ(fix.family, "guard");
  EXPECT_EQ(fix.split, "dev");
  ASSERT_TRUE(fix.symptom.has_value());
  EXPECT_THAT(*fix.symptom, HasSubstr("AttributeError"));

  absl::StatusOr<std::vector<FixSpec>> none = ParseFixes(With(R"("AttributeError: 'NoneType' object has no attribute 'rank'")", "null"), "f");
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_FALSE((*none)[0].symptom.has_value());
}

// Each bad line is refused with the source, its line number and what is wrong.
TEST(FixSpecTest, BadLinesNameTheLineAndTheField) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{not json", "not JSON"},
      {"[1, 2]", "expected a JSON object"},
      {With(R"("family": "guard")", R"("family": "typo")"), "`family` typo"},
      {With(R"("split": "dev")", R"("split": "train")"), "`split` train"},
      {With(R"("fault_lines": [12, 14])", R"("fault_lines": [0])"), "fault_lines"},
      {With(R"("fault_lines": [12, 14])", R"("fault_lines": [])"), "fault_lines"},
      {With(std::string(40, 'a'), "abc123"), "full 40-digit sha"},
      {With("huggingface/accelerate", "accelerate"), "OWNER/NAME"},
      {With("src/accelerate/state.py", "../etc/passwd.py"), "repo-relative .py path"},
      {With(R"("id": "acc-1", )", ""), "`id` must be a non-empty string"},
      {With(R"("symptom": "AttributeError: 'NoneType' object has no attribute 'rank'")", R"("symptom": 3)"), "symptom"},
  };
  for (const auto& [line, message] : cases) {
    absl::StatusOr<std::vector<FixSpec>> fixes = ParseFixes(std::string(kGood) + "\n" + line + "\n", "fixes.jsonl");
    ASSERT_FALSE(fixes.ok()) << line;
    EXPECT_EQ(fixes.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(fixes.status().message(), HasSubstr("fixes.jsonl:2: ")) << line;
    EXPECT_THAT(fixes.status().message(), HasSubstr(message)) << line;
  }
}

TEST(FixSpecTest, IdsAreUnique) {
  absl::StatusOr<std::vector<FixSpec>> fixes = ParseFixes(std::string(kGood) + "\n" + kGood + "\n", "f.jsonl");
  ASSERT_FALSE(fixes.ok());
  EXPECT_THAT(fixes.status().message(), HasSubstr("f.jsonl:2: id acc-1 appears twice"));
}

TEST(FixSpecTest, MissingFileIsNotFound) {
  absl::StatusOr<std::vector<FixSpec>> fixes = LoadFixes("/nonexistent/fixes.jsonl");
  ASSERT_FALSE(fixes.ok());
  EXPECT_THAT(fixes.status().message(), HasSubstr("/nonexistent/fixes.jsonl"));
}

}  // namespace
}  // namespace smallfix::realfix
