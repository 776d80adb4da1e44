// Mines a repo built here with git: known small fixes must cluster by shape, and the large,
// merge, revert and test-only commits must be left out.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "engine/base/temp_dir.h"
#include "engine/mine/clustering.h"
#include "engine/mine/edit_shape.h"
#include "engine/mine/history_walk.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix::mine {
namespace {

namespace fs = std::filesystem;

class HistoryMining : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<TempDir>(*TempDir::Create("mine-test"));
    Git("init -q -b main . && git config user.name t && git config user.email t@t && git config commit.gpgsign false");
  }
  void Git(const std::string& args) {
    const std::string command = "cd '" + dir_->path() + "' && git " + args + " >/dev/null 2>&1";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
  }
  void Write(const std::string& path, const std::string& text) {
    const fs::path full = fs::path(dir_->path()) / path;
    fs::create_directories(full.parent_path());
    std::ofstream(full, std::ios::binary) << text;
  }
  // Commits `text` as `path` with message `message`; dates rise one day per commit so the
  // time-ordered walk is deterministic.
  void Commit(const std::string& path, const std::string& text, const std::string& message) {
    Write(path, text);
    ++day_;
    const std::string date = "2024-01-" + std::string(day_ < 10 ? "0" : "") + std::to_string(day_) + "T12:00:00";
    Git("add -A && GIT_AUTHOR_DATE=" + date + " GIT_COMMITTER_DATE=" + date + " git commit -q -m '" + message + "'");
  }

  std::unique_ptr<TempDir> dir_;
  int day_ = 0;
};

std::string Module(const std::string& load, const std::string& save, const std::string& bound1,
                   const std::string& bound2, const std::string& call, const std::string& extra) {
  return "import torch\n\n\ndef load(state):\n" + load + "    return state.keys()\n\n\n"
         "def save(buffer):\n" + save + "    return buffer.size()\n\n\n"
         "def in_range(step, total):\n    return step " + bound1 + " total\n\n\n"
         "def last(index, count):\n    return index " + bound2 + " count\n\n\n"
         "def build(model, batch):\n    return model.forward(batch" + call + ")\n" + extra;
}

TEST_F(HistoryMining, KnownFixesClusterByShape) {
  const std::string guard_load = "    if state is None:\n        return\n";
  const std::string guard_save = "    if buffer is None:\n        return\n";
  Commit("pkg/core.py", Module("", "", "<", "<", "", ""), "initial");
  Commit("pkg/core.py", Module(guard_load, "", "<", "<", "", ""), "guard load against None");
  Commit("pkg/core.py", Module(guard_load, guard_save, "<", "<", "", ""), "guard save against None");
  Commit("pkg/core.py", Module(guard_load, guard_save, "<=", "<", "", ""), "in_range is inclusive");
  Commit("pkg/core.py", Module(guard_load, guard_save, "<=", "<=", "", ""), "last is inclusive");
  Commit("pkg/core.py", Module(guard_load, guard_save, "<=", "<=", ", use_cache=False", ""), "pass use_cache");
  // A 15-line change: too large.
  std::string big;
  for (int i = 0; i < 15; ++i) big += "\n\ndef extra_" + std::to_string(i) + "():\n    return " + std::to_string(i) + "\n";
  Commit("pkg/core.py", Module(guard_load, guard_save, "<=", "<=", ", use_cache=False", big), "add many helpers");
  // A test-only change.
  Commit("tests/test_core.py", "def test_x():\n    assert 1 < 2\n", "add a test");
  Commit("tests/test_core.py", "def test_x():\n    assert 1 <= 2\n", "fix the test");
  // A revert of a small change.
  Commit("pkg/util.py", "def g(a, b):\n    return a < b\n", "util");
  Commit("pkg/util.py", "def g(a, b):\n    return a > b\n", "flip g");
  Commit("pkg/util.py", "def g(a, b):\n    return a < b\n", "Revert \"flip g\"");
  // A merge whose side branch made a one-line change: the side commit counts, the merge not.
  Git("checkout -q -b side");
  Commit("pkg/side.py", "def h(x):\n    return x == 1\n", "side");
  Git("checkout -q main");
  Commit("pkg/other.py", "x = 1\n", "other");
  Git("merge -q --no-ff side -m merge");

  std::vector<HunkShape> hunks;
  WalkStats stats;
  WalkOptions options;
  options.max_lines = 10;
  ASSERT_TRUE(WalkHistory(dir_->path(), options, [&](MinedCommit commit) {
    for (HunkShape& hunk : ShapeCommit(commit)) hunks.push_back(std::move(hunk));
  }, &stats).ok());
  EXPECT_EQ(stats.walked, 15);
  const std::vector<Cluster> clusters = ClusterHunks(hunks);
  ASSERT_GE(clusters.size(), 3u);
  EXPECT_EQ(clusters[0].hunks.size(), 2u);
  EXPECT_EQ(clusters[1].hunks.size(), 2u);
  std::map<std::string, size_t> sizes;
  std::set<std::string> summaries;
  for (const Cluster& c : clusters) {
    sizes[c.shape] = c.hunks.size();
    for (const HunkShape& h : c.hunks) summaries.insert(h.summary);
  }
  EXPECT_EQ(sizes["insert `if $A is None: return` before a statement using $A"], 2u);
  EXPECT_EQ(sizes["change `<` to `<=` in comparison_operator"], 2u);
  EXPECT_EQ(sizes["insert `$A=False` in the arguments of a call of $B"], 1u);
  EXPECT_FALSE(summaries.contains("add many helpers"));
  EXPECT_FALSE(summaries.contains("fix the test"));
  EXPECT_FALSE(summaries.contains("Revert \"flip g\""));
  EXPECT_FALSE(summaries.contains("merge"));
  EXPECT_TRUE(summaries.contains("flip g"));
  // Each example points at the fixed line of its file.
  for (const Cluster& c : clusters) {
    if (c.shape == "change `<` to `<=` in comparison_operator") {
      for (const HunkShape& h : c.hunks) EXPECT_EQ(h.file, "pkg/core.py");
    }
  }
}

TEST_F(HistoryMining, SinceStopsTheWalk) {
  Commit("a.py", "x = 1\n", "one");
  Commit("a.py", "x = 2\n", "two");
  Commit("a.py", "x = 3\n", "three");
  WalkStats stats;
  WalkOptions options;
  options.since = 1704110400 + 86400;  // 2024-01-02T12:00:00Z: commits two and three
  ASSERT_TRUE(WalkHistory(dir_->path(), options, [](MinedCommit) {}, &stats).ok());
  EXPECT_EQ(stats.walked, 2);
  EXPECT_EQ(stats.kept, 2);
}

TEST(HistoryWalk, NotARepoIsAnError) {
  WalkStats stats;
  const absl::Status status = WalkHistory("/nonexistent/dir", WalkOptions{}, [](MinedCommit) {}, &stats);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), testing::HasSubstr("not a git repository"));
}

TEST(HistoryWalk, TestPaths) {
  EXPECT_TRUE(IsTestPath("tests/a.py"));
  EXPECT_TRUE(IsTestPath("src/pkg/test_a.py"));
  EXPECT_TRUE(IsTestPath("pkg/tests/unit/a.py"));
  EXPECT_TRUE(IsTestPath("conftest.py"));
  EXPECT_FALSE(IsTestPath("src/pkg/testing_utils.py"));
}

}  // namespace
}  // namespace smallfix::mine
