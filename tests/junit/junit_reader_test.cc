#include "engine/junit/junit_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace smallfix {
namespace {

TEST(JUnitReaderTest, ReadsCasesAndDecodesBodies) {
  const std::string xml = R"(<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="3">
<!-- a comment -->
<testcase classname="tests.test_a" name="test_one[x]" time="0.1"><failure message="KeyError: &apos;k&apos;">def f():
&gt;       return d[&quot;k&quot;]
E       KeyError: 'k' &#8594; &#x2713;

pkg/a.py:3: KeyError</failure></testcase>
<testcase classname="tests.test_a" name="test_two" time="0.1"/>
<testcase classname="tests.test_b" name="test_three"><error message="err"><![CDATA[raw <text> & stuff]]></error><system-out>out</system-out></testcase>
<testcase classname="tests.test_b" name="test_skip"><skipped message="no gpu"/></testcase>
</testsuite></testsuites>)";
  absl::StatusOr<std::vector<JUnitCase>> cases = ReadJUnit(xml);
  ASSERT_TRUE(cases.ok()) << cases.status();
  ASSERT_EQ(cases->size(), 4u);
  EXPECT_EQ((*cases)[0].name, "test_one[x]");
  EXPECT_EQ((*cases)[0].outcome, JUnitCase::Outcome::kFailed);
  EXPECT_EQ((*cases)[0].message, "KeyError: 'k'");
  EXPECT_THAT((*cases)[0].text, ::testing::HasSubstr(">       return d[\"k\"]"));
  EXPECT_THAT((*cases)[0].text, ::testing::HasSubstr("\u2192 \u2713"));
  EXPECT_EQ((*cases)[1].outcome, JUnitCase::Outcome::kPassed);
  EXPECT_EQ((*cases)[2].outcome, JUnitCase::Outcome::kError);
  EXPECT_EQ((*cases)[2].text, "raw <text> & stuff");
  EXPECT_EQ((*cases)[3].outcome, JUnitCase::Outcome::kSkipped);
  EXPECT_TRUE(LooksLikeJUnit(xml));
  EXPECT_FALSE(LooksLikeJUnit("Traceback (most recent call last):"));
}

TEST(JUnitReaderTest, MalformedXmlSaysWhere) {
  absl::StatusOr<std::vector<JUnitCase>> cases =
      ReadJUnit("<testsuite><testcase name=\"a\"><failure message=\"x\">never closed");
  ASSERT_FALSE(cases.ok());
  EXPECT_THAT(std::string(cases.status().message()), ::testing::HasSubstr("never closed"));
  EXPECT_FALSE(ReadJUnit("<testsuite><testcase name=\"a").ok());
}

TEST(JUnitReaderTest, TallyCountsRanCasesAndNamesFailures) {
  std::vector<JUnitCase> cases(4);
  cases[0].name = "test_ok";
  cases[1].name = "test_bad";
  cases[1].outcome = JUnitCase::Outcome::kFailed;
  cases[2].name = "test_broken";
  cases[2].outcome = JUnitCase::Outcome::kError;
  cases[3].name = "test_later";
  cases[3].outcome = JUnitCase::Outcome::kSkipped;
  CaseTally tally = TallyCases(cases);
  EXPECT_EQ(tally.tests, 3);
  EXPECT_EQ(tally.failures, 2);
  EXPECT_EQ(tally.failed, (std::vector<std::string>{"test_bad", "test_broken"}));
  EXPECT_EQ(tally.passed, (std::vector<std::string>{"test_ok"}));
  // A second rank's report adds to the same tally.
  TallyCases(cases, tally);
  EXPECT_EQ(tally.tests, 6);
  EXPECT_EQ(tally.failures, 4);
  EXPECT_FALSE(IsFailure(cases[0]));
  EXPECT_TRUE(IsFailure(cases[2]));
}

}  // namespace
}  // namespace smallfix
