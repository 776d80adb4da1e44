#include "engine/vcs/run_sweep.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "engine/base/run_owner.h"
#include "engine/base/temp_dir.h"
#include "engine/vcs/workspace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

std::string Shell(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  char buffer[256];
  while (pipe != nullptr && fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  if (pipe != nullptr) pclose(pipe);
  return out;
}

// The owner tag of a process that has ended: a child that exited and was reaped.
RunOwner DeadOwner() {
  const pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  RunOwner owner = ThisProcess();
  owner.pid = child;
  return owner;
}

class RunSweepTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("smallfix_sweep_" + std::to_string(getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(base_);
    repo_ = base_ / "repo";
    fs::create_directories(repo_);
    std::ofstream(repo_ / "mod.py") << "x = 1\n";
    ASSERT_EQ(Git("init -q -b main && git -C '" + repo_.string() +
                  "' add -A && git -C '" + repo_.string() +
                  "' -c user.name=t -c user.email=t@t commit -qm init"),
              0);
  }
  void TearDown() override { fs::remove_all(base_); }

  int Git(const std::string& args) {
    return std::system(("git -C '" + repo_.string() + "' " + args + " >/dev/null 2>&1").c_str());
  }
  std::string GitOut(const std::string& args) {
    return Shell("git -C '" + repo_.string() + "' " + args);
  }
  // A worktree as a run killed outright leaves it: its directory at `dir`/`name`, named `name`
  // in .git/worktrees, on a branch of that name.
  void AddWorktree(const fs::path& dir, const std::string& name) {
    fs::create_directories(dir);
    ASSERT_EQ(Git("worktree add -q -b " + name + " '" + (dir / name).string() + "'"), 0) << name;
  }

  fs::path base_, repo_;
};

TEST_F(RunSweepTest, RemovesWhatDeadRunsLeftAndNothingElse) {
  const std::string dead = OwnerTag(DeadOwner());
  const std::string live = OwnerTag(ThisProcess());
  AddWorktree(base_ / "scratch-dead", "smallfix-" + dead + "-1-c1");
  AddWorktree(base_ / "scratch-live", "smallfix-" + live + "-1-c1");
  AddWorktree(base_ / "smallfix-Ab12Cd", "smallfix-c3");  // a version before owner tags
  AddWorktree(base_ / "elsewhere", "smallfix-experiment");  // the user's own
  ASSERT_EQ(Git("branch smallfix-" + dead + "-2-reproduce"), 0);  // killed before detaching
  ASSERT_EQ(Git("branch smallfix-notes"), 0);
  const std::string status_before = GitOut("status --porcelain");

  const SweepCounts counts = SweepDeadRuns(repo_.string());
  EXPECT_EQ(counts.worktrees, 2);
  EXPECT_EQ(counts.branches, 3);
  const std::string worktrees = GitOut("worktree list");
  EXPECT_THAT(worktrees, Not(HasSubstr(dead)));
  EXPECT_THAT(worktrees, Not(HasSubstr("smallfix-c3")));
  EXPECT_THAT(worktrees, HasSubstr("smallfix-" + live + "-1-c1"));
  EXPECT_THAT(worktrees, HasSubstr("smallfix-experiment"));
  EXPECT_FALSE(fs::exists(base_ / "scratch-dead" / ("smallfix-" + dead + "-1-c1")));
  EXPECT_FALSE(fs::exists(repo_ / ".git" / "worktrees" / ("smallfix-" + dead + "-1-c1")));
  EXPECT_TRUE(fs::exists(base_ / "scratch-live" / ("smallfix-" + live + "-1-c1") / "mod.py"));
  const std::string branches = GitOut("branch --list 'smallfix*'");
  EXPECT_THAT(branches, Not(HasSubstr(dead)));
  EXPECT_THAT(branches, Not(HasSubstr("smallfix-c3")));
  EXPECT_THAT(branches, HasSubstr("smallfix-" + live + "-1-c1"));
  EXPECT_THAT(branches, HasSubstr("smallfix-experiment"));
  EXPECT_THAT(branches, HasSubstr("smallfix-notes"));
  EXPECT_EQ(GitOut("status --porcelain"), status_before);
  EXPECT_EQ(SweepNote(counts),
            "removed what smallfix runs that were killed left behind: 2 worktree(s), 3 "
            "branch(es), 0 scratch director(ies)");
  EXPECT_EQ(SweepNote(SweepDeadRuns(repo_.string())), "");  // nothing more the second time
}

TEST_F(RunSweepTest, WorkspacesAreDetachedUniqueAndSurviveAnotherRunsSweep) {
  absl::StatusOr<std::unique_ptr<Workspace>> first =
      Workspace::Create(repo_.string(), (base_ / "run1").string(), "c1");
  absl::StatusOr<std::unique_ptr<Workspace>> second =
      Workspace::Create(repo_.string(), (base_ / "run2").string(), "c1");
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(GitOut("branch --list 'smallfix*'"), "");  // no branch while they exist
  EXPECT_EQ(Shell("git -C '" + (*first)->path() + "' rev-parse --abbrev-ref HEAD"), "HEAD\n");
  EXPECT_EQ(Shell("git -C '" + (*first)->path() + "' rev-parse HEAD"), GitOut("rev-parse HEAD"));
  // This process is alive: a concurrent run's sweep leaves its worktrees alone.
  EXPECT_EQ(SweepDeadRuns(repo_.string()).worktrees, 0);
  EXPECT_TRUE(fs::exists(fs::path((*first)->path()) / "mod.py"));
  const std::string listed = GitOut("worktree list --porcelain");
  EXPECT_THAT(listed, HasSubstr((*first)->path()));
  EXPECT_THAT(listed, HasSubstr((*second)->path()));
  first->reset();
  second->reset();
  EXPECT_EQ(GitOut("worktree list --porcelain").find("worktree ", 1), std::string::npos);
  EXPECT_FALSE(fs::exists(repo_ / ".git" / "worktrees") &&
               !fs::is_empty(repo_ / ".git" / "worktrees"));
}

TEST_F(RunSweepTest, RemovesScratchDirectoriesOfDeadRuns) {
  const fs::path temp = base_ / "tmp";
  fs::create_directories(temp);
  const char* saved = getenv("TMPDIR");
  const std::string saved_value = saved ? saved : "";
  setenv("TMPDIR", temp.c_str(), 1);
  const std::string dead = OwnerTag(DeadOwner());
  RunOwner other = DeadOwner();
  other.host = other.host == "00000000" ? "00000001" : "00000000";
  for (const std::string& name :
       {"smallfix-run-" + dead + "-Ab12Cd", "smallfix-" + dead + "-Zz99Yy", std::string("smallfix-Ab12Cd"),
        "smallfix-run-" + OwnerTag(other) + "-Ab12Cd", "notsmallfix-" + dead + "-Ab12Cd"}) {
    fs::create_directories(temp / name / "inner");
  }
  {
    absl::StatusOr<TempDir> mine = TempDir::Create("smallfix-run");
    ASSERT_TRUE(mine.ok());
    EXPECT_THAT(fs::path(mine->path()).filename().string(),
                HasSubstr("smallfix-run-" + OwnerTag(ThisProcess()) + "-"));
    EXPECT_EQ(SweepDeadRunDirs().directories, 2);
    EXPECT_TRUE(fs::exists(mine->path()));
  }
  std::vector<std::string> left;
  for (const fs::directory_entry& entry : fs::directory_iterator(temp))
    left.push_back(entry.path().filename().string());
  std::sort(left.begin(), left.end());
  EXPECT_THAT(left, ::testing::ElementsAre("notsmallfix-" + dead + "-Ab12Cd", "smallfix-Ab12Cd",
                                           "smallfix-run-" + OwnerTag(other) + "-Ab12Cd"));
  if (saved) setenv("TMPDIR", saved_value.c_str(), 1); else unsetenv("TMPDIR");
}

}  // namespace
}  // namespace smallfix
