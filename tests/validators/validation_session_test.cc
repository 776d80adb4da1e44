#include "validators/validation_session.h"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/base/temp_dir.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

// A repo (a plain directory) whose "test" passes once mod.py says VALUE = 2.
struct Repo {
  Repo() {
    absl::StatusOr<TempDir> made = TempDir::Create("session-test");
    EXPECT_TRUE(made.ok());
    dir.emplace(*std::move(made));
    std::ofstream(dir->path() + "/mod.py") << kBefore;
  }
  static constexpr char kBefore[] = "VALUE = 1\n";
  static constexpr char kAfter[] = "VALUE = 2\n";
  std::optional<TempDir> dir;
};

ValidationPlan ColdPlan() {
  ValidationPlan plan;
  plan.failing_test = "grep -q 'VALUE = 2' mod.py";
  plan.other_tests = {"test -f mod.py"};
  plan.warm = false;
  plan.runner.time_limit_seconds = 60;
  return plan;
}

TEST(ValidationSessionTest, ReproducesThenValidatesInItsScratchDirectory) {
  Repo repo;
  std::vector<std::string> progress;
  std::string scratch;
  {
    absl::StatusOr<std::unique_ptr<ValidationSession>> session = ValidationSession::Start(
        repo.dir->path(), ColdPlan(), nullptr,
        [&](const std::string& line) { progress.push_back(line); });
    ASSERT_TRUE(session.ok()) << session.status();
    scratch = (*session)->scratch_dir();
    EXPECT_TRUE(std::filesystem::is_directory(scratch));
    EXPECT_TRUE((*session)->start_notes().empty());  // cold: no server to start
    absl::StatusOr<TestRun> reproduced = (*session)->Reproduction();
    ASSERT_TRUE(reproduced.ok()) << reproduced.status();
    EXPECT_FALSE(reproduced->passed);
    EXPECT_FALSE(reproduced->cancelled);

    const ValidationResult fixed =
        (*session)->Validate("c1", {{"mod.py", Repo::kBefore, Repo::kAfter}}, nullptr);
    EXPECT_EQ(fixed.status, ValidationStatus::kPlausible);
    const ValidationResult unfixed =
        (*session)->Validate("c2", {{"mod.py", Repo::kBefore, "VALUE = 3\n"}}, nullptr);
    EXPECT_EQ(unfixed.status, ValidationStatus::kFailed);
    EXPECT_FALSE((*session)->warm());
  }
  EXPECT_FALSE(std::filesystem::exists(scratch));
  ASSERT_FALSE(progress.empty());
  EXPECT_EQ(progress.front(), "reproducing the failure on the unpatched tree");
  // The user's tree is never written.
  std::ifstream in(repo.dir->path() + "/mod.py");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), Repo::kBefore);
}

TEST(ValidationSessionTest, CancelStopsTheReproduction) {
  Repo repo;
  ValidationPlan plan = ColdPlan();
  plan.failing_test = "sleep 50";
  std::atomic<bool> cancel{false};
  absl::StatusOr<std::unique_ptr<ValidationSession>> session =
      ValidationSession::Start(repo.dir->path(), plan, &cancel, nullptr);
  ASSERT_TRUE(session.ok()) << session.status();
  cancel = true;
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<TestRun> reproduced = (*session)->Reproduction();
  ASSERT_TRUE(reproduced.ok()) << reproduced.status();
  EXPECT_TRUE(reproduced->cancelled);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 30);
}

TEST(ValidationSessionTest, EndingTheSessionStopsAReproductionNobodyWaitsFor) {
  Repo repo;
  ValidationPlan plan = ColdPlan();
  plan.failing_test = "sleep 50";
  const auto start = std::chrono::steady_clock::now();
  {
    absl::StatusOr<std::unique_ptr<ValidationSession>> session =
        ValidationSession::Start(repo.dir->path(), plan, nullptr, nullptr);
    ASSERT_TRUE(session.ok()) << session.status();
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 30);
}

}  // namespace
}  // namespace smallfix
