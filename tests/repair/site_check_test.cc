#include "engine/repair/site_check.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "engine/base/temp_dir.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

std::string Why(const std::string& repo, const std::string& file) {
  absl::Status status = CheckSiteFile(repo, file);
  return status.ok() ? "ok" : std::string(status.message());
}

TEST(SiteCheckTest, RefusesWhatLiesOutsideTheRepositoryOrIsNoFileOfIt) {
  absl::StatusOr<TempDir> dir = TempDir::Create("site-check-test");
  ASSERT_TRUE(dir.ok());
  const std::string repo = dir->path() + "/repo";
  fs::create_directories(repo + "/pkg");
  fs::create_directories(repo + "/vendor/sub/pkg");
  fs::create_directories(repo + "/vendor/sub/.git");
  std::ofstream(repo + "/pkg/mod.py") << "x = 1\n";
  std::ofstream(repo + "/vendor/sub/pkg/mod.py") << "x = 1\n";
  std::ofstream(dir->path() + "/outside.py") << "x = 1\n";
  fs::create_symlink(dir->path() + "/outside.py", repo + "/pkg/linked.py");
  fs::create_symlink("mod.py", repo + "/pkg/alias.py");

  EXPECT_EQ(Why(repo, "pkg/mod.py"), "ok");
  EXPECT_EQ(Why(repo, "pkg/alias.py"), "ok");      // a symlink inside the repository
  EXPECT_EQ(Why(repo, "pkg/missing.py"), "ok");    // left to the loader, which names it
  EXPECT_THAT(Why(repo, "../outside.py"), HasSubstr("../outside.py: outside the repository"));
  EXPECT_THAT(Why(repo, dir->path() + "/outside.py"), HasSubstr("outside the repository"));
  EXPECT_THAT(Why(repo, repo + "/pkg/mod.py"),
              HasSubstr("give the path relative to the repository (pkg/mod.py)"));
  EXPECT_THAT(Why(repo, "pkg/linked.py"), HasSubstr("pkg/linked.py: a symlink to"));
  EXPECT_THAT(Why(repo, "pkg"), HasSubstr("pkg: is a directory"));
  EXPECT_THAT(Why(repo, "vendor/sub/pkg/mod.py"),
              HasSubstr("inside vendor/sub, a submodule or nested repository"));
}

}  // namespace
}  // namespace smallfix
