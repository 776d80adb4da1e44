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
  // Shell syntax after pytest: appended flags would reach the last command, not pytest.
  EXPECT_EQ(PytestArguments("python -m pytest -q tests; rm -rf \"$PWD\""), std::nullopt);
  EXPECT_EQ(PytestArguments("pytest tests | tee log.txt"), std::nullopt);
  EXPECT_EQ(PytestArguments("pytest tests && echo done"), std::nullopt);
  EXPECT_EQ(PytestArguments("pytest tests > out.txt"), std::nullopt);
  EXPECT_EQ(PytestArguments("pytest -k 'a or b' \"tests/x.py::t[a|b]\""),
            "-k 'a or b' \"tests/x.py::t[a|b]\"");
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
