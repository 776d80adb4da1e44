// CaptureFailure against a real pytest: the failing test's runtime facts come back with the
// output and the JUnit report, and a failed run without them says why.
#include "validators/failure_capture.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/base/temp_dir.h"
#include "engine/facts/runtime_facts.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

constexpr char kPython[] = "/usr/bin/python3";

class FailureCaptureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("/usr/bin/python3 -c 'import pytest' >/dev/null 2>&1") != 0)
      GTEST_SKIP() << "no pytest for /usr/bin/python3";
    absl::StatusOr<TempDir> dir = TempDir::Create("failure-capture-test");
    ASSERT_TRUE(dir.ok());
    dir_.emplace(*std::move(dir));
    std::filesystem::create_directories(dir_->path() + "/tests");
    std::ofstream(dir_->path() + "/tests/test_sizes.py")
        << "def sizes(params):\n"
           "    return [p.numel() for p in params]\n\n"
           "def test_sizes():\n"
           "    frozen = None\n"
           "    assert sizes([frozen]) == [0]\n";
    options_.interpreter = kPython;
    options_.time_limit_seconds = 120;
  }

  std::optional<TempDir> dir_;
  CaptureOptions options_;
};

TEST_F(FailureCaptureTest, APytestFailureBringsItsRuntimeFacts) {
  absl::StatusOr<FailureCapture> run =
      CaptureFailure(dir_->path(), "python -m pytest -q tests", options_);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->exit_code, 1) << run->output;
  EXPECT_FALSE(run->junit_xml.empty());
  absl::StatusOr<RuntimeFacts> facts = ParseRuntimeFacts(run->facts_json);
  ASSERT_TRUE(facts.ok()) << facts.status() << "\n" << run->output;
  EXPECT_EQ(facts->test, "tests/test_sizes.py::test_sizes");
  EXPECT_EQ(facts->exception.type, "AttributeError");
  EXPECT_EQ(facts->exception.attrs.at("name"), "numel");
  ASSERT_EQ(facts->frames.size(), 3u);  // the test, the comprehension's caller, the comprehension
  const FrameFacts* inner = FindFrame(*facts, "tests/test_sizes.py", 2);
  ASSERT_NE(inner, nullptr);
  EXPECT_TRUE(inner->locals.at("p").none);
  EXPECT_TRUE(FindFrame(*facts, "tests/test_sizes.py", 6)->locals.at("frozen").none);
  EXPECT_TRUE(run->notes.empty()) << run->notes.front();
  // Nothing of the capture is left in the repo.
  EXPECT_FALSE(std::filesystem::exists(dir_->path() + "/facts.json"));
}

TEST_F(FailureCaptureTest, AFailedRunWithoutATestFailureSaysSo) {
  absl::StatusOr<FailureCapture> run =
      CaptureFailure(dir_->path(), "python -m pytest -q tests --no-such-option", options_);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_NE(run->exit_code, 0);
  EXPECT_TRUE(run->facts_json.empty());
  ASSERT_EQ(run->notes.size(), 1u);
  EXPECT_NE(run->notes[0].find("runtime facts: none"), std::string::npos) << run->notes[0];
}

TEST_F(FailureCaptureTest, APassingRunHasNoFactsAndNoNote) {
  std::ofstream(dir_->path() + "/tests/test_sizes.py") << "def test_ok():\n    pass\n";
  absl::StatusOr<FailureCapture> run =
      CaptureFailure(dir_->path(), "python -m pytest -q tests", options_);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->exit_code, 0) << run->output;
  EXPECT_TRUE(run->facts_json.empty());
  EXPECT_TRUE(run->notes.empty());
}

// The run gets the variables the validation runs get (realbugs' PYTHONPATH=src, a repo config's
// env): without them the project may not even import.
TEST_F(FailureCaptureTest, TheRunGetsTheGivenEnvironment) {
  std::ofstream(dir_->path() + "/tests/test_sizes.py")
      << "import os\n\ndef test_env():\n    assert os.environ.get('CAPTURE_ENV') == 'set'\n";
  absl::StatusOr<FailureCapture> run =
      CaptureFailure(dir_->path(), "python -m pytest -q tests", options_);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->exit_code, 1) << run->output;
  options_.env["CAPTURE_ENV"] = "set";
  run = CaptureFailure(dir_->path(), "python -m pytest -q tests", options_);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->exit_code, 0) << run->output;
}

// An interpreter without coverage.py (a project's venv): asked for coverage, the capture says
// which interpreter lacks it instead of handing on one line of "No module named coverage" as
// the failure to localize.
TEST_F(FailureCaptureTest, CoverageWithoutCoveragePyNamesTheInterpreter) {
  const std::string interpreter = dir_->path() + "/python-without-coverage";
  std::ofstream(interpreter) << "#!/bin/sh\n"
                                "if [ \"$1\" = -m ] && [ \"$2\" = coverage ]; then\n"
                                "  echo \"$0: No module named coverage\" >&2; exit 1\n"
                                "fi\n"
                                "exec /usr/bin/python3 \"$@\"\n";
  std::filesystem::permissions(interpreter, std::filesystem::perms::owner_all);
  options_.interpreter = interpreter;
  options_.coverage = true;
  absl::StatusOr<FailureCapture> run =
      CaptureFailure(dir_->path(), "python -m pytest -q tests", options_);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(run.status().message().find("coverage.py"), std::string::npos) << run.status();
  EXPECT_NE(run.status().message().find(interpreter), std::string::npos) << run.status();
  // Without coverage the same interpreter runs the tests.
  options_.coverage = false;
  run = CaptureFailure(dir_->path(), "python -m pytest -q tests", options_);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->exit_code, 1) << run->output;
}

}  // namespace
}  // namespace smallfix
