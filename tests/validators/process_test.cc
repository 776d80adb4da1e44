#include "validators/process/process.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace smallfix {
namespace {

using ::testing::HasSubstr;

// Alive and not a zombie: in a container, PID 1 may never reap the orphans we killed.
bool ProcessAlive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const size_t paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] != 'Z';
}

int CountOpenFds() {
  int count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    ++count;
  }
  return count;
}

TEST(ProcessTest, ExitCodeAndOutput) {
  ProcessOptions options;
  options.shell_command = "echo out; echo err >&2; exit 3";
  absl::StatusOr<ProcessResult> result = RunProcess(options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->exit_code, 3);
  EXPECT_FALSE(result->timed_out);
  EXPECT_FALSE(result->ok());
  EXPECT_THAT(result->output, HasSubstr("out\n"));
  EXPECT_THAT(result->output, HasSubstr("err\n"));
}

TEST(ProcessTest, ArgvIsNotInterpretedByAShell) {
  ProcessOptions options;
  options.argv = {"echo", "$HOME", ";", "x"};
  absl::StatusOr<ProcessResult> result = RunProcess(options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->ok());
  EXPECT_EQ(result->output, "$HOME ; x\n");
}

TEST(ProcessTest, MissingProgramIsAnError) {
  ProcessOptions options;
  options.argv = {"/nonexistent/smallfix-no-such-program"};
  absl::StatusOr<ProcessResult> result = RunProcess(options);
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(std::string(result.status().message()), HasSubstr("smallfix-no-such-program"));
}

TEST(ProcessTest, BadCwdIsAnError) {
  ProcessOptions options;
  options.argv = {"true"};
  options.cwd = "/nonexistent/dir";
  EXPECT_FALSE(RunProcess(options).ok());
}

TEST(ProcessTest, SignalIsReported) {
  ProcessOptions options;
  options.shell_command = "kill -SEGV $$";
  absl::StatusOr<ProcessResult> result = RunProcess(options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->term_signal, SIGSEGV);
  EXPECT_EQ(result->exit_code, -1);
}

TEST(ProcessTest, EnvAndCwd) {
  const std::string dir = ::testing::TempDir() + "/process_test_cwd";
  std::filesystem::create_directories(dir);
  ProcessOptions options;
  options.shell_command = "echo \"$SMALLFIX_TEST_VALUE\"; pwd";
  options.env["SMALLFIX_TEST_VALUE"] = "hello world";
  options.cwd = dir;
  absl::StatusOr<ProcessResult> result = RunProcess(options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->output,
            "hello world\n" + std::filesystem::canonical(dir).string() + "\n");
}

TEST(ProcessTest, OutputCapKeepsTheTail) {
  ProcessOptions options;
  options.shell_command = "seq 1 200000; echo LAST";
  options.output_limit_bytes = 4096;
  absl::StatusOr<ProcessResult> result = RunProcess(options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->ok());
  EXPECT_TRUE(result->output_truncated);
  EXPECT_EQ(result->output.size(), 4096u);
  EXPECT_THAT(result->output, ::testing::EndsWith("199999\n200000\nLAST\n"));
}

TEST(ProcessTest, StdinIsFed) {
  ProcessOptions options;
  options.argv = {"cat"};
  options.stdin_text = "piped\n";
  absl::StatusOr<ProcessResult> result = RunProcess(options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->output, "piped\n");
}

// A hung child with grandchildren that hold the output pipe: the whole group is killed at
// the limit, and none of them survives.
TEST(ProcessTest, TimeoutKillsTheWholeGroup) {
  const std::string pids = ::testing::TempDir() + "/process_test_pids";
  std::filesystem::remove(pids);
  ProcessOptions options;
  // The grandchildren ignore SIGTERM, so only the SIGKILL after the grace period ends them.
  options.shell_command = "(trap '' TERM; sleep 300) & echo $! >> " + pids +
                          "; (trap '' TERM; sleep 300) & echo $! >> " + pids +
                          "; echo started; sleep 300";
  options.time_limit_seconds = 1;
  options.kill_grace_seconds = 0.5;
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<ProcessResult> result = RunProcess(options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->timed_out);
  EXPECT_FALSE(result->ok());
  EXPECT_THAT(result->output, HasSubstr("started"));
  EXPECT_LT(seconds, 30);
  std::ifstream in(pids);
  pid_t pid;
  int checked = 0;
  while (in >> pid) {
    // Killed and reaped by init (they were reparented); give the kernel a moment.
    for (int i = 0; i < 50 && ProcessAlive(pid); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_FALSE(ProcessAlive(pid)) << "grandchild " << pid << " survived";
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

// smallfix killed outright (SIGKILL) cannot stop its process groups: the group's supervisor
// learns of it from the kernel and kills the whole group, the command and what it started.
TEST(ProcessTest, KillingTheRunnerKillsTheGroup) {
  const std::string pids = ::testing::TempDir() + "/process_test_orphans";
  std::filesystem::remove(pids);
  const pid_t runner = fork();
  if (runner == 0) {
    ProcessOptions options;
    options.shell_command = "sleep 300 & echo $! >> " + pids + "; echo $$ >> " + pids + "; sleep 301";
    (void)RunProcess(options);
    _exit(0);
  }
  std::vector<pid_t> started;
  for (int i = 0; i < 250 && started.size() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    started.clear();
    std::ifstream in(pids);
    for (pid_t pid; in >> pid;) started.push_back(pid);
  }
  ASSERT_EQ(started.size(), 2u) << "the command did not start";
  ASSERT_EQ(kill(runner, SIGKILL), 0);
  waitpid(runner, nullptr, 0);
  for (pid_t pid : started) {
    for (int i = 0; i < 100 && ProcessAlive(pid); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_FALSE(ProcessAlive(pid)) << pid << " outlived the process that ran it";
  }
}

// The child exits but leaves a daemon holding the pipe: RunProcess returns promptly.
TEST(ProcessTest, LeftoverDaemonDoesNotBlock) {
  ProcessOptions options;
  options.shell_command = "sleep 300 & echo done";
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<ProcessResult> result = RunProcess(options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->exit_code, 0);
  EXPECT_EQ(result->output, "done\n");
  EXPECT_LT(seconds, 10);
}

TEST(ProcessTest, NoDescriptorLeaks) {
  const int before = CountOpenFds();
  for (int i = 0; i < 20; ++i) {
    ProcessOptions options;
    options.shell_command = i % 2 ? "echo x" : "exit 1";
    ASSERT_TRUE(RunProcess(options).ok());
    options.argv = {"/nonexistent/x"};
    options.shell_command.clear();
    EXPECT_FALSE(RunProcess(options).ok());
  }
  EXPECT_EQ(CountOpenFds(), before);
}

TEST(ProcessTest, ChildSeesNoInheritedDescriptors) {
  ProcessOptions options;
  options.shell_command = "ls /proc/self/fd | wc -l";
  absl::StatusOr<ProcessResult> result = RunProcess(options);
  ASSERT_TRUE(result.ok()) << result.status();
  // 0, 1, 2 and the descriptor ls uses to read the directory.
  EXPECT_EQ(result->output, "4\n");
}

TEST(ProcessTest, MemoryLimit) {
  ProcessOptions options;
  options.argv = {"/usr/bin/python3", "-c", "x = bytearray(512 << 20); print('allocated')"};
  options.memory_limit_bytes = size_t{256} << 20;
  absl::StatusOr<ProcessResult> result = RunProcess(options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_NE(result->exit_code, 0);
  EXPECT_THAT(result->output, HasSubstr("MemoryError"));
}

}  // namespace
}  // namespace smallfix
