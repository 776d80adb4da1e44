#include "validators/process/python_env.h"

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace smallfix {
namespace {

namespace fs = std::filesystem;

// A scratch folder with a fake venv: bin/python3 (an executable script) and bin/torchrun.
class PythonEnvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) / ("python-env-" + std::to_string(getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "venv" / "bin");
    interpreter_ = (root_ / "venv" / "bin" / "python3").string();
    std::ofstream(interpreter_) << "#!/bin/sh\necho \"venv python $*\"\n";
    fs::permissions(interpreter_, fs::perms::owner_all);
    saved_path_ = getenv("PATH") ? getenv("PATH") : "";
  }
  void TearDown() override {
    setenv("PATH", saved_path_.c_str(), 1);
    fs::remove_all(root_);
  }
  fs::path root_;
  std::string interpreter_, saved_path_;
};

TEST_F(PythonEnvTest, ShimsRunTheInterpreterByItsOwnPathAndItsFolderFollowsOnPath) {
  const std::string shims = (root_ / "shims").string();
  absl::StatusOr<std::map<std::string, std::string>> env = PythonEnvironment(shims, interpreter_);
  ASSERT_TRUE(env.ok()) << env.status();
  // A script, not a link: a venv's python reached through a link elsewhere loses its venv.
  EXPECT_FALSE(fs::is_symlink(fs::path(shims) / "python"));
  std::ifstream shim(fs::path(shims) / "python");
  std::string text((std::istreambuf_iterator<char>(shim)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("exec '" + interpreter_ + "' \"$@\""), std::string::npos) << text;
  const std::string path = env->at("PATH");
  EXPECT_EQ(path.rfind(shims + ":" + (root_ / "venv" / "bin").string() + ":", 0), 0u) << path;
}

TEST_F(PythonEnvTest, DefaultIsTheFirstPython3OnPathMadeAbsolute) {
  setenv("PATH", ("/nonexistent:" + (root_ / "venv" / "bin").string() + ":/usr/bin").c_str(), 1);
  EXPECT_EQ(DefaultInterpreter(), interpreter_);
  setenv("PATH", "/nonexistent", 1);
  EXPECT_EQ(DefaultInterpreter(), "python3");
}

}  // namespace
}  // namespace smallfix
