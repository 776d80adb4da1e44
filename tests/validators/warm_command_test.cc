#include "validators/warm/warm_command.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;

TEST(WarmCommandTest, PytestAsAModuleOrAProgramGoesWarm) {
  std::optional<WarmCommand> module = WarmCommandOf("python -m pytest -q -x tests/test_a.py::test_b", "/usr/bin/python3");
  ASSERT_TRUE(module);
  EXPECT_EQ(module->mode, "module");
  EXPECT_THAT(module->args, ElementsAre("-q", "-x", "tests/test_a.py::test_b"));

  std::optional<WarmCommand> program = WarmCommandOf("pytest tests", "/usr/bin/python3");
  ASSERT_TRUE(program);
  EXPECT_EQ(program->mode, "script");
  EXPECT_THAT(program->args, ElementsAre("tests"));

  std::optional<WarmCommand> interpreter = WarmCommandOf("/usr/bin/python3 -m pytest tests", "/usr/bin/python3");
  ASSERT_TRUE(interpreter);
  EXPECT_EQ(interpreter->mode, "module");
}

TEST(WarmCommandTest, QuotesAreRemovedAsTheShellWould) {
  std::optional<WarmCommand> warm = WarmCommandOf("python3 -m pytest -k 'a and not b' \"tests/x y.py\"", "/usr/bin/python3");
  ASSERT_TRUE(warm);
  EXPECT_THAT(warm->args, ElementsAre("-k", "a and not b", "tests/x y.py"));
}

TEST(WarmCommandTest, WhatNeedsAShellOrAnotherPythonStaysCold) {
  for (const char* command : {
           "python -m pytest tests && echo done",  // several commands
           "python -m pytest tests > log",         // redirection
           "python -m pytest $TESTS",              // a variable
           "python -m pytest tests/test_*.py",     // a glob
           "python -m pytest \"$HOME/tests\"",     // a variable in double quotes
           "python -m pytest 'tests",              // an unclosed quote
           "python3.9 -m pytest tests",            // another interpreter
           "/opt/venv/bin/python -m pytest tests", // another interpreter
           "FOO=1 python -m pytest tests",         // an assignment before it
           "python -c 'import pytest'",            // not pytest
           "make test",
       }) {
    EXPECT_FALSE(WarmCommandOf(command, "/usr/bin/python3")) << command;
  }
}

}  // namespace
}  // namespace smallfix
