#include "engine/localize/host_prefix.h"

#include <gtest/gtest.h>

#include "engine/localize/traceback_parser.h"

namespace smallfix {
namespace {

TEST(HostPrefixTest, LearnsAHostFromATracebackAndStripsItAfterwards) {
  HostPrefixes hosts;
  // A word before ": " is not a host until a traceback starts after it.
  EXPECT_EQ(hosts.Split("node7: step 3 loss 2.1").text, "node7: step 3 loss 2.1");
  EXPECT_EQ(hosts.Split("node7: Traceback (most recent call last):").text,
            "Traceback (most recent call last):");
  const PrefixedLine frame = hosts.Split("node7:   File \"/w/pkg/a.py\", line 3, in f");
  EXPECT_EQ(frame.text, "  File \"/w/pkg/a.py\", line 3, in f");
  EXPECT_EQ(frame.rank, -1);
  EXPECT_EQ(hosts.Split("node7: step 4 loss 2.0").text, "step 4 loss 2.0");
  ASSERT_EQ(hosts.hosts().size(), 1u);
  EXPECT_EQ(hosts.hosts()[0], "node7");
}

TEST(HostPrefixTest, NeverTakesLevelsOrExceptionsForHosts) {
  HostPrefixes hosts;
  EXPECT_EQ(hosts.Split("ERROR: Traceback (most recent call last):").text,
            "ERROR: Traceback (most recent call last):");
  EXPECT_EQ(hosts.Split("RuntimeError: Traceback (most recent call last):").text,
            "RuntimeError: Traceback (most recent call last):");
  // srun -l's numbers are ranks (rank_prefix.h), not hosts.
  EXPECT_EQ(hosts.Split("3: Traceback (most recent call last):").rank, 3);
  EXPECT_TRUE(hosts.hosts().empty());
}

TEST(HostPrefixTest, HostsAndRanksMakeSeparateStreams) {
  HostPrefixes hosts;
  const PrefixedLine a = hosts.Split("10.4.0.12: [rank2]:Traceback (most recent call last):");
  const PrefixedLine b = hosts.Split("10.4.0.13: [rank2]:Traceback (most recent call last):");
  const PrefixedLine c = hosts.Split("10.4.0.12: [rank3]:Traceback (most recent call last):");
  EXPECT_EQ(a.rank, 2);
  EXPECT_EQ(a.text, "Traceback (most recent call last):");
  EXPECT_NE(a.stream, b.stream);
  EXPECT_NE(a.stream, c.stream);
  EXPECT_EQ(hosts.Split("10.4.0.12: [rank2]:    x = 1").stream, a.stream);
}

TEST(HostPrefixTest, TorchrunRolesNameTheNode) {
  HostPrefixes hosts;
  const PrefixedLine a = hosts.Split("[juno12:1]:Traceback (most recent call last):");
  const PrefixedLine b = hosts.Split("[juno13:1]:Traceback (most recent call last):");
  EXPECT_EQ(a.text, "Traceback (most recent call last):");
  EXPECT_EQ(a.rank, 1);
  EXPECT_NE(a.stream, b.stream);
  // The plain torchrun prefixes stay rank_prefix.h's.
  EXPECT_EQ(hosts.Split("[default1]:x").stream, 1);
  EXPECT_EQ(hosts.Split("[rank4]:x").rank, 4);
}

TEST(HostPrefixTest, TwoNodesInterleavedAreTwoTracebacks) {
  const ParsedFailure parsed = ParseFailureText(
      "node1: Traceback (most recent call last):\n"
      "node2: Traceback (most recent call last):\n"
      "node1:   File \"/w/pkg/a.py\", line 3, in f\n"
      "node2:   File \"/w/pkg/b.py\", line 9, in g\n"
      "node1:     x()\n"
      "node2:     y()\n"
      "node1: KeyError: 'a'\n"
      "node2: ValueError: b\n");
  ASSERT_EQ(parsed.traces.size(), 2u);
  EXPECT_EQ(parsed.traces[0].exception_type, "KeyError");
  ASSERT_EQ(parsed.traces[0].frames.size(), 1u);
  EXPECT_EQ(parsed.traces[0].frames[0].path, "/w/pkg/a.py");
  EXPECT_EQ(parsed.traces[1].exception_type, "ValueError");
  EXPECT_EQ(parsed.traces[1].frames[0].line, 9);
}

}  // namespace
}  // namespace smallfix
