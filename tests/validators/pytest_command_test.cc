#include "validators/pytest_command.h"

#include "gtest/gtest.h"

namespace smallfix {
namespace {

TEST(PytestCommandTest, RecognisesTheWaysPytestIsStarted) {
  EXPECT_EQ(PytestArguments("pytest -q tests"), "-q tests");
  EXPECT_EQ(PytestArguments("  py.test tests/test_a.py"), "tests/test_a.py");
  EXPECT_EQ(PytestArguments("python -m pytest -q -x tests/test_a.py::test_b"), "-q -x tests/test_a.py::test_b");
  EXPECT_EQ(PytestArguments("python3.11 -m pytest"), "");
  EXPECT_EQ(PytestArguments("/usr/bin/python3 -m pytest tests"), "tests");
  EXPECT_EQ(PytestArguments("/opt/venv/bin/pytest tests"), "tests");
}

// The substring match this replaced took all of these for pytest.
TEST(PytestCommandTest, OtherCommandsAreNotPytest) {
  EXPECT_FALSE(IsPytest("python run_pytest_like.py"));
  EXPECT_FALSE(IsPytest("python -m unittest tests.test_pytest_compat"));
  EXPECT_FALSE(IsPytest("python -c 'import pytest'"));
  EXPECT_FALSE(IsPytest("make test"));
  EXPECT_FALSE(IsPytest(""));
}

TEST(PytestCommandTest, ShellQuoteSurvivesQuotes) {
  EXPECT_EQ(ShellQuote("a b"), "'a b'");
  EXPECT_EQ(ShellQuote("it's"), "'it'\\''s'");
}

}  // namespace
}  // namespace smallfix
