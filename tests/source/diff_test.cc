#include "engine/source/diff.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// A scratch git repository holding one file; checks diffs with the real `git apply`.
class GitApplyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           absl::StrCat("smallfix_diff_test_", ::getpid(), "_",
                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "pkg");
    ASSERT_EQ(Run("git init -q ."), 0);
  }
  void TearDown() override { fs::remove_all(dir_); }

  int Run(const std::string& command) {
    return std::system(absl::StrCat("cd '", dir_.string(), "' && ", command, " >/dev/null 2>&1").c_str());
  }
  void Write(const std::string& path, const std::string& text) {
    std::ofstream(dir_ / path, std::ios::binary) << text;
  }
  std::string Read(const std::string& path) {
    std::ifstream in(dir_ / path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

  // Writes `before`, checks and applies the diff to `after` with git, returns the result.
  std::string RoundTrip(const std::string& before, const std::string& after) {
    Write("pkg/mod.py", before);
    absl::StatusOr<std::string> diff = UnifiedDiff("pkg/mod.py", before, after);
    EXPECT_TRUE(diff.ok()) << diff.status();
    Write("fix.diff", *diff);
    EXPECT_EQ(Run("git apply --check fix.diff"), 0) << *diff;
    EXPECT_EQ(Run("git apply fix.diff"), 0);
    return Read("pkg/mod.py");
  }

  fs::path dir_;
};

TEST_F(GitApplyTest, PlainEdit) {
  const std::string before = "def f(p):\n    p.grad.zero_()\n    return p\n";
  const std::string after = "def f(p):\n    if p.grad is not None:\n        p.grad.zero_()\n    return p\n";
  absl::StatusOr<std::string> diff = UnifiedDiff("pkg/mod.py", before, after);
  ASSERT_TRUE(diff.ok());
  EXPECT_THAT(*diff, HasSubstr("--- a/pkg/mod.py\n+++ b/pkg/mod.py\n"));
  EXPECT_THAT(*diff, HasSubstr("+    if p.grad is not None:\n"));
  EXPECT_EQ(RoundTrip(before, after), after);
}

TEST_F(GitApplyTest, CrlfAndNoNewlineAtEnd) {
  const std::string before = "import os\r\nx = os.environ['RANK']\r\ny = 1";
  const std::string after = "import os\r\nx = os.environ.get('RANK', '0')\r\ny = 1";
  EXPECT_EQ(RoundTrip(before, after), after);
  const std::string appended = before + "\nz = 2\n";
  EXPECT_EQ(RoundTrip(before, appended), appended);
}

TEST_F(GitApplyTest, EqualTextsGiveAnEmptyDiff) {
  EXPECT_EQ(*UnifiedDiff("a.py", "x\n", "x\n"), "");
}

// Hunks as `git diff -U0` cuts them: a replaced line, a pure insertion (start: the line before
// it) and a pure deletion, each its own hunk.
TEST(LineHunksTest, CutsAsGitDiffWithoutContext) {
  const std::string before = "a\nb\nc\nd\ne\nf\ng\n";
  const std::string after = "a\nB\nc\nnew\nd\ne\ng\n";
  absl::StatusOr<std::vector<LineHunk>> hunks = LineHunks(before, after);
  ASSERT_TRUE(hunks.ok()) << hunks.status();
  ASSERT_EQ(hunks->size(), 3u);
  EXPECT_EQ((*hunks)[0].old_start, 2);
  EXPECT_EQ((*hunks)[0].old_lines, 1);
  EXPECT_EQ((*hunks)[0].new_lines, 1);
  EXPECT_EQ((*hunks)[1].old_start, 3);  // inserted after line 3
  EXPECT_EQ((*hunks)[1].old_lines, 0);
  EXPECT_EQ((*hunks)[1].new_start, 4);
  EXPECT_EQ((*hunks)[1].new_lines, 1);
  EXPECT_EQ((*hunks)[2].old_start, 6);
  EXPECT_EQ((*hunks)[2].old_lines, 1);
  EXPECT_EQ((*hunks)[2].new_lines, 0);
  EXPECT_TRUE(LineHunks("x\n", "x\n")->empty());
}

// ChangedLineCount diffs only what lies between the common whole lines; it must count what
// the whole diff counts, wherever the edit is and whatever the line endings.
TEST(ChangedLineCountTest, CountsWhatTheWholeDiffCounts) {
  std::string body;
  for (int i = 0; i < 300; ++i) absl::StrAppend(&body, "    x", i, " = f(x", i, ")\n", i % 7 == 0 ? "\n" : "");
  const std::string file = "import os\n\n\ndef run(x0):\n" + body + "    return x0\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {file, absl::StrCat("import sys\n", file.substr(10))},                        // the first line
      {file, file + "print(1)\n"},                                                  // an appended line
      {file, file.substr(0, file.size() - 1)},                                      // the last newline
      {file, absl::StrCat(file.substr(0, 200), "    if x0 is None:\n        return\n", file.substr(200))},
      {file, absl::StrCat(file.substr(0, 200), file.substr(260))},                  // a cut across lines
      {file, absl::StrCat(file.substr(0, 203), "y", file.substr(204))},             // one character
      {"a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n"},
      {"", "x\n"},
      {"x\n", ""},
      {"same\n", "same\n"},
  };
  for (const auto& [before, after] : cases) {
    absl::StatusOr<std::string> diff = UnifiedDiff("pkg/m.py", before, after);
    ASSERT_TRUE(diff.ok()) << diff.status();
    absl::StatusOr<int> count = ChangedLineCount(before, after);
    ASSERT_TRUE(count.ok()) << count.status();
    EXPECT_EQ(*count, CountChangedLines(*diff)) << *diff;
  }
  EXPECT_EQ(*ChangedLineCount(file, absl::StrCat(file.substr(0, 203), "y", file.substr(204))), 2);
}

}  // namespace
}  // namespace smallfix
