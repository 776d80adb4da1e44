// The warm runner against the real server (validators/warm/warm_server.py) and Debian's Python:
// the same JUnit outcome as a cold run, fresh modules per run, a hung test killed while the
// server goes on, cold runs once the server is gone, and two ranks over gloo.
#include "validators/warm/warm_runner.h"

#include <signal.h>
#include <sys/wait.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "engine/base/temp_dir.h"
#include "engine/facts/runtime_facts.h"
#include "gtest/gtest.h"
#include "validators/process/python_env.h"
#include "validators/warm/warm_server.h"

namespace smallfix {
namespace {

constexpr char kPython[] = "/usr/bin/python3";

void Write(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}

bool PythonHas(const std::string& code) {
  return std::system(("/usr/bin/python3 -c '" + code + "' >/dev/null 2>&1").c_str()) == 0;
}

class WarmRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!PythonHas("import pytest")) GTEST_SKIP() << "no pytest for /usr/bin/python3";
    absl::StatusOr<TempDir> dir = TempDir::Create("warm-runner-test");
    ASSERT_TRUE(dir.ok());
    dir_.emplace(*std::move(dir));
    absl::StatusOr<std::map<std::string, std::string>> env = PythonEnvironment(Path("bin"), kPython);
    ASSERT_TRUE(env.ok()) << env.status();
    options_.env = *env;
    options_.time_limit_seconds = 60;
    std::filesystem::create_directories(Path("server"));
  }

  std::string Path(const std::string& name) const { return dir_->path() + "/" + name; }

  // A server preloading `preload` (the default list when empty; pytest alone keeps tests fast).
  std::unique_ptr<WarmServer> StartServer(const std::string& preload = "pytest", const std::string& script = "") {
    WarmServerOptions options;
    options.interpreter = kPython;
    options.script = script;
    options.env = options_.env;
    options.dir = Path("server");
    options.preload = preload;
    absl::StatusOr<std::unique_ptr<WarmServer>> server = WarmServer::Start(options);
    EXPECT_TRUE(server.ok()) << server.status();
    return server.ok() ? *std::move(server) : nullptr;
  }

  std::unique_ptr<TestRunner> Runner(WarmServer* server, RunnerKind kind = RunnerKind::kLocal) {
    RunnerOptions options = options_;
    options.warm = server;
    return MakeTestRunner(kind, options);
  }

  // A project whose package's X is `x`, with a test that passes only when it sees `want` and
  // when the package was not imported before the test module (a leak from the server).
  void WriteProject(const std::string& root, int x, int want) {
    Write(root + "/pkg/__init__.py", "X = " + std::to_string(x) + "\n");
    Write(root + "/tests/test_x.py",
          "import sys\nLEAKED = 'pkg' in sys.modules\nimport pkg\n\n"
          "def test_fresh():\n    assert not LEAKED\n\n"
          "def test_x():\n    assert pkg.X == " + std::to_string(want) + "\n");
  }

  std::optional<TempDir> dir_;
  RunnerOptions options_;
};

TEST_F(WarmRunnerTest, SameOutcomeAsAColdRun) {
  WriteProject(Path("repo"), 1, 2);  // test_fresh passes, test_x fails
  std::unique_ptr<WarmServer> server = StartServer();
  ASSERT_NE(server, nullptr);
  // The `pytest` program does not put the working directory on sys.path: `import pkg` fails
  // at collection, cold and warm alike.
  absl::StatusOr<TestRun> cold_program = MakeTestRunner(RunnerKind::kLocal, options_)->Run(Path("repo"), "pytest -q tests");
  absl::StatusOr<TestRun> warm_program = Runner(server.get())->Run(Path("repo"), "pytest -q tests");
  ASSERT_TRUE(cold_program.ok() && warm_program.ok());
  EXPECT_FALSE(warm_program->passed);
  EXPECT_EQ(warm_program->summary, cold_program->summary) << warm_program->output;
  EXPECT_NE(warm_program->output.find("No module named 'pkg'"), std::string::npos) << warm_program->output;

  const std::string command = "python -m pytest -q tests";
  absl::StatusOr<TestRun> cold = MakeTestRunner(RunnerKind::kLocal, options_)->Run(Path("repo"), command);
  absl::StatusOr<TestRun> warm = Runner(server.get())->Run(Path("repo"), command);
  ASSERT_TRUE(cold.ok()) << cold.status();
  ASSERT_TRUE(warm.ok()) << warm.status();
  EXPECT_FALSE(warm->passed);
  EXPECT_EQ(warm->passed, cold->passed);
  EXPECT_EQ(warm->tests, 2);
  EXPECT_EQ(warm->tests, cold->tests);
  EXPECT_EQ(warm->failures, cold->failures);
  EXPECT_EQ(warm->summary, cold->summary);
  EXPECT_EQ(warm->summary, "1 failed of 2 (test_x)") << warm->output;
  EXPECT_NE(warm->output.find("assert 1 == 2"), std::string::npos) << warm->output;
  EXPECT_FALSE(server->failed());
}

// The runtime-facts plugin loads in the warm server's test process as in a cold one: the same
// failure, and the traced line in the passing test.
TEST_F(WarmRunnerTest, RuntimeFactsWarmAsCold) {
  WriteProject(Path("repo"), 1, 2);  // test_fresh passes, test_x fails at line 9
  std::unique_ptr<WarmServer> server = StartServer();
  ASSERT_NE(server, nullptr);
  options_.capture_facts = true;
  options_.facts_trace = "tests/test_x.py:6";
  const std::string command = "python -m pytest -q tests";
  absl::StatusOr<TestRun> cold = MakeTestRunner(RunnerKind::kLocal, options_)->Run(Path("repo"), command);
  absl::StatusOr<TestRun> warm = Runner(server.get())->Run(Path("repo"), command);
  ASSERT_TRUE(cold.ok() && warm.ok());
  for (const TestRun* run : {&*cold, &*warm}) {
    absl::StatusOr<RuntimeFacts> facts = ParseRuntimeFacts(run->facts_json);
    ASSERT_TRUE(facts.ok()) << facts.status() << "\n" << run->facts_json << run->output;
    EXPECT_EQ(facts->test, "tests/test_x.py::test_x");
    EXPECT_EQ(facts->exception.type, "AssertionError");
    ASSERT_EQ(facts->frames.size(), 1u);
    EXPECT_EQ(facts->frames[0].file, "tests/test_x.py");
    EXPECT_EQ(facts->frames[0].line, 9);
    ASSERT_EQ(facts->passing.size(), 1u);
    EXPECT_EQ(facts->passing[0].test, "tests/test_x.py::test_fresh");
    EXPECT_EQ(facts->passing[0].line, 6);
  }
  EXPECT_EQ(warm->summary, cold->summary);
  EXPECT_FALSE(server->failed());
}

TEST_F(WarmRunnerTest, AModuleEditedBetweenRunsIsSeenFresh) {
  std::unique_ptr<WarmServer> server = StartServer();
  ASSERT_NE(server, nullptr);
  std::unique_ptr<TestRunner> runner = Runner(server.get());
  WriteProject(Path("c1"), 1, 1);
  WriteProject(Path("c2"), 2, 2);
  for (const char* candidate : {"c1", "c2"}) {
    absl::StatusOr<TestRun> run = runner->Run(Path(candidate), "python -m pytest -q tests");
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_TRUE(run->passed) << candidate << ": " << run->output;
  }
  // The same tree edited in place (same size, same second) is read again too.
  WriteProject(Path("c1"), 3, 3);
  absl::StatusOr<TestRun> edited = runner->Run(Path("c1"), "python -m pytest -q tests");
  ASSERT_TRUE(edited.ok()) << edited.status();
  EXPECT_TRUE(edited->passed) << edited->output;
  EXPECT_FALSE(server->failed());
}

TEST_F(WarmRunnerTest, AHungTestIsKilledAndTheServerGoesOn) {
  Write(Path("repo/tests/test_hang.py"), "import time\n\ndef test_hang():\n    time.sleep(120)\n");
  Write(Path("repo/tests/test_ok.py"), "def test_ok():\n    pass\n");
  std::unique_ptr<WarmServer> server = StartServer();
  ASSERT_NE(server, nullptr);
  options_.time_limit_seconds = 3;
  std::unique_ptr<TestRunner> runner = Runner(server.get());
  absl::StatusOr<TestRun> hung = runner->Run(Path("repo"), "python -m pytest -q tests/test_hang.py");
  ASSERT_TRUE(hung.ok()) << hung.status();
  EXPECT_TRUE(hung->timed_out);
  EXPECT_FALSE(hung->passed);
  EXPECT_LT(hung->seconds, 20);
  // A test that passes but leaves a thread running keeps the interpreter from ending, warm
  // as cold: it times out too.
  Write(Path("repo/tests/test_thread.py"),
        "import threading, time\n\ndef test_leaves_a_thread():\n    threading.Thread(target=time.sleep, args=(120,)).start()\n");
  absl::StatusOr<TestRun> thread = runner->Run(Path("repo"), "python -m pytest -q tests/test_thread.py");
  ASSERT_TRUE(thread.ok()) << thread.status();
  EXPECT_TRUE(thread->timed_out) << thread->output;
  absl::StatusOr<TestRun> next = runner->Run(Path("repo"), "python -m pytest -q tests/test_ok.py");
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_TRUE(next->passed) << next->output;
  EXPECT_FALSE(server->failed());
}

TEST_F(WarmRunnerTest, CancelStopsAWarmRunAndItsProcesses) {
  Write(Path("repo/tests/test_hang.py"),
        "import os, time\n\ndef test_hang():\n    open('pid', 'w').write(str(os.getpid()))\n    time.sleep(120)\n");
  std::unique_ptr<WarmServer> server = StartServer();
  ASSERT_NE(server, nullptr);
  std::atomic<bool> cancel{false};
  options_.cancel = &cancel;
  std::thread stopper([&] {
    for (int i = 0; i < 300 && !std::filesystem::exists(Path("repo/pid")); ++i) ::usleep(100000);
    cancel = true;
  });
  absl::StatusOr<TestRun> run = Runner(server.get())->Run(Path("repo"), "python -m pytest -q tests");
  stopper.join();
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_TRUE(run->cancelled);
  EXPECT_FALSE(run->passed);
  EXPECT_LT(run->seconds, 30);
  std::ifstream pid_file(Path("repo/pid"));
  pid_t pid = 0;
  ASSERT_TRUE(pid_file >> pid);
  EXPECT_NE(::kill(pid, 0), 0) << "the test process " << pid << " is still there";
}

TEST_F(WarmRunnerTest, AKilledServerMeansColdRunsWithANote) {
  WriteProject(Path("repo"), 1, 1);
  std::unique_ptr<WarmServer> server = StartServer();
  ASSERT_NE(server, nullptr);
  std::unique_ptr<TestRunner> runner = Runner(server.get());
  absl::StatusOr<TestRun> warm = runner->Run(Path("repo"), "python -m pytest -q tests");
  ASSERT_TRUE(warm.ok()) << warm.status();
  EXPECT_TRUE(warm->passed) << warm->output;
  EXPECT_TRUE(server->Notes().empty());

  ASSERT_EQ(::kill(server->pid(), SIGKILL), 0);
  ::usleep(200000);
  absl::StatusOr<TestRun> cold = runner->Run(Path("repo"), "python -m pytest -q tests");
  ASSERT_TRUE(cold.ok()) << cold.status();
  EXPECT_TRUE(cold->passed) << cold->output;
  EXPECT_EQ(cold->summary, warm->summary);
  EXPECT_TRUE(server->failed());
  ASSERT_EQ(server->Notes().size(), 1u);
  EXPECT_NE(server->Notes()[0].find("cold"), std::string::npos) << server->Notes()[0];
}

TEST_F(WarmRunnerTest, AServerThatDoesNotStartMeansColdRunsWithANote) {
  WriteProject(Path("repo"), 1, 1);
  Write(Path("broken_server.py"), "raise SystemExit('cannot preload')\n");
  std::unique_ptr<WarmServer> server = StartServer("pytest", Path("broken_server.py"));
  ASSERT_NE(server, nullptr);
  absl::StatusOr<TestRun> run = Runner(server.get())->Run(Path("repo"), "python -m pytest -q tests");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_TRUE(run->passed) << run->output;
  EXPECT_TRUE(server->failed());
  ASSERT_EQ(server->Notes().size(), 1u);
  EXPECT_NE(server->Notes()[0].find("did not start (cannot preload)"), std::string::npos) << server->Notes()[0];
}

// Ctrl-C while the server still imports torch (seconds on a loaded machine): the run ends as
// cancelled without waiting for "ready", nothing runs cold, and the server is not failed.
TEST_F(WarmRunnerTest, CancelWhileTheServerStartsEndsTheRunAsCancelled) {
  WriteProject(Path("repo"), 1, 1);
  Write(Path("slow_server.py"), "import time\ntime.sleep(600)\n");
  std::unique_ptr<WarmServer> server = StartServer("pytest", Path("slow_server.py"));
  ASSERT_NE(server, nullptr);
  std::atomic<bool> cancel{false};
  options_.cancel = &cancel;
  std::thread stopper([&] {
    ::usleep(300000);
    cancel = true;
  });
  absl::StatusOr<TestRun> run = Runner(server.get())->Run(Path("repo"), "python -m pytest -q tests");
  stopper.join();
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_TRUE(run->cancelled);
  EXPECT_FALSE(run->passed);
  EXPECT_FALSE(server->failed()) << server->Notes()[0];
}

TEST_F(WarmRunnerTest, TwoRanksOverGloo) {
  if (!PythonHas("import torch.distributed as d; assert d.is_available() and d.is_gloo_available()")) {
    GTEST_SKIP() << "no torch.distributed with gloo for /usr/bin/python3";
  }
  Write(Path("repo/tests/test_ranks.py"),
        "import os\nimport torch\nimport torch.distributed as dist\n\n"
        "def test_all_reduce():\n"
        "    dist.init_process_group('gloo')\n"
        "    rank = dist.get_rank()\n"
        "    assert rank == int(os.environ['RANK']) == int(os.environ['LOCAL_RANK'])\n"
        "    t = torch.tensor([rank + 1.0])\n"
        "    dist.all_reduce(t)\n"
        "    assert t.item() == 3.0\n"
        "    print('rank', rank, 'of', dist.get_world_size(), 'sum', t.item())\n"
        "    dist.destroy_process_group()\n");
  std::unique_ptr<WarmServer> server = StartServer("");  // the real preload: torch
  ASSERT_NE(server, nullptr);
  options_.world_size = 2;
  absl::StatusOr<TestRun> run = Runner(server.get(), RunnerKind::kTorchrun)->Run(Path("repo"), "python -m pytest -q -s tests");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_TRUE(run->passed) << run->output;
  EXPECT_EQ(run->tests, 2);  // one per rank
  EXPECT_NE(run->output.find("[rank0]:rank 0 of 2 sum 3.0"), std::string::npos) << run->output;
  EXPECT_NE(run->output.find("[rank1]:rank 1 of 2 sum 3.0"), std::string::npos) << run->output;
  EXPECT_FALSE(server->failed());
}

}  // namespace
}  // namespace smallfix
