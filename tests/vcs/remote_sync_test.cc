// Clone, fetch, commit and push against a real bare repository (file://), built with git.
#include "engine/vcs/remote_sync.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "engine/vcs/branch_commit.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string Shell(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  char buffer[256];
  while (pipe != nullptr && fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  if (pipe != nullptr) pclose(pipe);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::string Read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

const GitIdentity kBot{"smallfix", "bot@smallfix.invalid"};

class RemoteSyncTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("smallfix_remote_" + std::to_string(getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(base_);
    fs::create_directories(base_ / "seed" / "pkg");
    std::ofstream(base_ / "seed" / "pkg" / "mod.py") << "x = 1\n";
    std::ofstream(base_ / "seed" / "run.sh") << "echo hi\n";
    fs::permissions(base_ / "seed" / "run.sh", fs::perms::owner_exec, fs::perm_options::add);
    bare_ = (base_ / "remote.git").string();
    url_ = "file://" + bare_;
    Shell("git init -q --bare -b main '" + bare_ + "' && cd '" + (base_ / "seed").string() +
          "' && git init -q -b main && git add -A && git -c user.name=Alice -c user.email=alice@example.com "
          "commit -qm seed && git push -q '" + bare_ + "' main 2>&1");
    clone_ = (base_ / "clone").string();
  }
  void TearDown() override { fs::remove_all(base_); }

  std::string Remote(const std::string& args) { return Shell("git --git-dir='" + bare_ + "' " + args + " 2>&1"); }

  fs::path base_;
  std::string bare_, url_, clone_;
};

TEST_F(RemoteSyncTest, ClonesCommitsOnABranchAndPushesIt) {
  ASSERT_TRUE(CloneOrFetch(url_, clone_, GitAuth{}).ok());
  ASSERT_TRUE(CheckoutDetached(clone_, "refs/remotes/origin/main").ok());
  EXPECT_EQ(Read(fs::path(clone_) / "pkg" / "mod.py"), "x = 1\n");
  const std::vector<FileChange> changes = {{"pkg/mod.py", "x = 1\n", "x = 2\n"}, {"run.sh", "echo hi\n", "echo ho\n"}};
  absl::StatusOr<std::string> commit =
      CommitChanges(clone_, "refs/remotes/origin/main", "smallfix/issue-7", changes, kBot, "Fix #7\n");
  ASSERT_TRUE(commit.ok()) << commit.status();
  // The working tree is left alone; the branch holds the change.
  EXPECT_EQ(Read(fs::path(clone_) / "pkg" / "mod.py"), "x = 1\n");
  ASSERT_TRUE(PushBranch(clone_, url_, "smallfix/issue-7", "main", GitAuth{}).ok());
  EXPECT_EQ(Remote("rev-parse smallfix/issue-7"), *commit);
  EXPECT_EQ(Remote("show smallfix/issue-7:pkg/mod.py"), "x = 2");
  EXPECT_EQ(Remote("log -1 --format=%an/%ae/%cn/%s smallfix/issue-7"), "smallfix/bot@smallfix.invalid/smallfix/Fix #7");
  EXPECT_EQ(Remote("rev-parse smallfix/issue-7^"), Remote("rev-parse main"));
  // The executable bit survives.
  EXPECT_THAT(Remote("ls-tree smallfix/issue-7 run.sh"), HasSubstr("100755"));
  EXPECT_EQ(Remote("rev-list --count main"), "1");
}

TEST_F(RemoteSyncTest, RefusesToPushTheDefaultBranch) {
  ASSERT_TRUE(CloneOrFetch(url_, clone_, GitAuth{}).ok());
  ASSERT_TRUE(CommitChanges(clone_, "refs/remotes/origin/main", "main", {{"pkg/mod.py", "", "y\n"}}, kBot, "m").ok());
  absl::Status pushed = PushBranch(clone_, url_, "main", "main", GitAuth{});
  EXPECT_FALSE(pushed.ok());
  EXPECT_THAT(pushed.message(), HasSubstr("default branch"));
  EXPECT_EQ(Remote("rev-list --count main"), "1");
}

TEST_F(RemoteSyncTest, FetchSeesNewCommitsAndOtherPeoplesWork) {
  ASSERT_TRUE(CloneOrFetch(url_, clone_, GitAuth{}).ok());
  ASSERT_TRUE(CommitChanges(clone_, "refs/remotes/origin/main", "smallfix/issue-1", {{"pkg/mod.py", "", "x = 3\n"}},
                            kBot, "Fix #1").ok());
  ASSERT_TRUE(PushBranch(clone_, url_, "smallfix/issue-1", "main", GitAuth{}).ok());
  // A maintainer adds a commit on top of the bot's branch, elsewhere.
  const std::string other = (base_ / "other").string();
  Shell("git clone -q '" + url_ + "' '" + other + "' 2>&1 && cd '" + other +
        "' && git checkout -q smallfix/issue-1 && echo more >> pkg/mod.py && git -c user.name=Bob "
        "-c user.email=bob@example.com commit -qam touch && git push -q origin smallfix/issue-1 2>&1");
  ASSERT_TRUE(CloneOrFetch(url_, clone_, GitAuth{}).ok());  // a fetch this time
  absl::StatusOr<std::vector<std::string>> others =
      OtherPeoplesCommits(clone_, "refs/remotes/origin/smallfix/issue-1", "refs/remotes/origin/main", kBot.email);
  ASSERT_TRUE(others.ok()) << others.status();
  EXPECT_THAT(*others, ElementsAre("Bob <bob@example.com>"));
  // The bot's own commit alone is nobody else's.
  absl::StatusOr<std::vector<std::string>> own =
      OtherPeoplesCommits(clone_, "refs/remotes/origin/smallfix/issue-1~1", "refs/remotes/origin/main", kBot.email);
  ASSERT_TRUE(own.ok()) << own.status();
  EXPECT_TRUE(own->empty());
}

TEST_F(RemoteSyncTest, SameChangeComparesTreeAndParentNotTime) {
  ASSERT_TRUE(CloneOrFetch(url_, clone_, GitAuth{}).ok());
  const std::vector<FileChange> change = {{"pkg/mod.py", "", "x = 4\n"}};
  ASSERT_TRUE(CommitChanges(clone_, "refs/remotes/origin/main", "a", change, kBot, "one").ok());
  sleep(1);
  ASSERT_TRUE(CommitChanges(clone_, "refs/remotes/origin/main", "b", change, kBot, "two").ok());
  ASSERT_TRUE(CommitChanges(clone_, "refs/remotes/origin/main", "c", {{"pkg/mod.py", "", "x = 5\n"}}, kBot, "one").ok());
  EXPECT_TRUE(*SameChange(clone_, "refs/heads/a", "refs/heads/b"));
  EXPECT_FALSE(*SameChange(clone_, "refs/heads/a", "refs/heads/c"));
  EXPECT_TRUE(RefExists(clone_, "refs/heads/a"));
  EXPECT_FALSE(RefExists(clone_, "refs/heads/nope"));
}

TEST_F(RemoteSyncTest, RefusesAForeignDirectoryAndABadUrl) {
  fs::create_directories(clone_);
  std::ofstream(fs::path(clone_) / "file") << "x";
  absl::Status status = CloneOrFetch(url_, clone_, GitAuth{});
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(status.message(), HasSubstr("not a git clone"));
  const std::string fresh = (base_ / "fresh").string();
  status = CloneOrFetch("file://" + (base_ / "missing.git").string(), fresh, GitAuth{});
  EXPECT_FALSE(status.ok());
  EXPECT_FALSE(fs::exists(fresh));  // no half-made clone left
  ASSERT_TRUE(CloneOrFetch(url_, fresh, GitAuth{}).ok());
  status = CloneOrFetch("file://" + (base_ / "elsewhere.git").string(), fresh, GitAuth{});
  EXPECT_THAT(status.message(), HasSubstr("is a clone of"));
}

}  // namespace
}  // namespace smallfix
