#include "engine/vcs/workspace.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void Write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string Shell(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  char buffer[256];
  while (pipe != nullptr && fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  if (pipe != nullptr) pclose(pipe);
  return out;
}

class WorkspaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("smallfix_ws_" + std::to_string(getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(base_);
    repo_ = base_ / "repo";
    Write(repo_ / "pkg" / "mod.py", "x = 1\n");
    Write(repo_ / "README.md", "readme\n");
  }
  void TearDown() override { fs::remove_all(base_); }

  void MakeGitRepo() {
    const std::string git = "git -C '" + repo_.string() + "' ";
    ASSERT_EQ(std::system((git + "init -q && " + git + "add -A && " + git +
                           "-c user.name=t -c user.email=t@t commit -qm init").c_str()),
              0);
  }

  fs::path base_, repo_;
};

TEST_F(WorkspaceTest, GitWorktreeCarriesUncommittedChangesAndCleansUp) {
  MakeGitRepo();
  Write(repo_ / "pkg" / "mod.py", "x = 2  # uncommitted\n");
  Write(repo_ / "pkg" / "new.py", "y = 3\n");
  fs::remove(repo_ / "README.md");
  const std::string status_before = Shell("git -C '" + repo_.string() + "' status --porcelain");
  fs::path path;
  {
    absl::StatusOr<std::unique_ptr<Workspace>> workspace =
        Workspace::Create(repo_.string(), (base_ / "scratch").string(), "c1");
    ASSERT_TRUE(workspace.ok()) << workspace.status();
    path = (*workspace)->path();
    EXPECT_TRUE((*workspace)->is_git_worktree());
    EXPECT_EQ(Read(fs::path(path) / "pkg" / "mod.py"), "x = 2  # uncommitted\n");
    EXPECT_EQ(Read(fs::path(path) / "pkg" / "new.py"), "y = 3\n");
    EXPECT_FALSE(fs::exists(fs::path(path) / "README.md"));
    ASSERT_TRUE((*workspace)->WriteFile("pkg/mod.py", "x = 42\n").ok());
    EXPECT_EQ(Read(repo_ / "pkg" / "mod.py"), "x = 2  # uncommitted\n");  // user's tree untouched
  }
  EXPECT_FALSE(fs::exists(path));
  const std::string worktrees = Shell("git -C '" + repo_.string() + "' worktree list");
  EXPECT_THAT(worktrees, ::testing::Not(::testing::HasSubstr("smallfix-")));
  EXPECT_THAT(Shell("git -C '" + repo_.string() + "' branch"), ::testing::Not(::testing::HasSubstr("smallfix-")));
  EXPECT_EQ(Shell("git -C '" + repo_.string() + "' status --porcelain"), status_before);
}

TEST_F(WorkspaceTest, PlainCopyForANonGitDirectory) {
  fs::create_directories(repo_ / "__pycache__");
  Write(repo_ / "__pycache__" / "mod.cpython-311.pyc", "junk");
  fs::path path;
  {
    absl::StatusOr<std::unique_ptr<Workspace>> workspace =
        Workspace::Create(repo_.string(), (base_ / "scratch").string(), "c1");
    ASSERT_TRUE(workspace.ok()) << workspace.status();
    path = (*workspace)->path();
    EXPECT_FALSE((*workspace)->is_git_worktree());
    EXPECT_EQ(Read(fs::path(path) / "pkg" / "mod.py"), "x = 1\n");
    EXPECT_FALSE(fs::exists(fs::path(path) / "__pycache__"));
  }
  EXPECT_FALSE(fs::exists(path));
}

}  // namespace
}  // namespace smallfix
