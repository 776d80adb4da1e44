#include "engine/base/dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include "gtest/gtest.h"

namespace smallfix {
namespace {

namespace fs = std::filesystem;

class DirLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("smallfix_lock_" + std::to_string(getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // Another holder: flock locks belong to an open file description, so a second open of the
  // directory in this process conflicts like another process would.
  int HoldElsewhere() {
    const int fd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY);
    EXPECT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
    return fd;
  }
  fs::path dir_;
};

TEST_F(DirLockTest, CreatesTheDirectoryAndExcludesOthersUntilReleased) {
  {
    absl::StatusOr<DirLock> lock = DirLock::Acquire(dir_.string(), nullptr, nullptr);
    ASSERT_TRUE(lock.ok()) << lock.status();
    EXPECT_TRUE(fs::is_directory(dir_));
    const int other = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY);
    EXPECT_NE(::flock(other, LOCK_EX | LOCK_NB), 0);
    ::close(other);
  }
  const int after = HoldElsewhere();  // released with the object
  ::close(after);
}

TEST_F(DirLockTest, SaysOnceThatItWaitsThenGetsTheLock) {
  fs::create_directories(dir_);
  const int holder = HoldElsewhere();
  std::atomic<int> told{0};
  std::atomic<bool> acquired{false};
  std::thread waiter([&] {
    absl::StatusOr<DirLock> lock = DirLock::Acquire(dir_.string(), [&] { ++told; }, nullptr);
    acquired = lock.ok();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  EXPECT_FALSE(acquired.load());
  EXPECT_EQ(told.load(), 1);
  ::close(holder);
  waiter.join();
  EXPECT_TRUE(acquired.load());
  EXPECT_EQ(told.load(), 1);
}

TEST_F(DirLockTest, CancelEndsTheWait) {
  fs::create_directories(dir_);
  const int holder = HoldElsewhere();
  const std::atomic<bool> cancel{true};
  absl::StatusOr<DirLock> lock = DirLock::Acquire(dir_.string(), nullptr, &cancel);
  EXPECT_TRUE(absl::IsCancelled(lock.status())) << lock.status();
  ::close(holder);
}

}  // namespace
}  // namespace smallfix
