#include "engine/localize/rank_prefix.h"

#include <gtest/gtest.h>

namespace smallfix {
namespace {

void ExpectSplit(std::string_view line, int rank, std::string_view text) {
  const PrefixedLine split = SplitRankPrefix(line);
  EXPECT_EQ(split.rank, rank) << line;
  EXPECT_EQ(split.text, text) << line;
}

TEST(RankPrefixTest, LauncherPrefixes) {
  ExpectSplit("[rank1]:Traceback (most recent call last):", 1, "Traceback (most recent call last):");
  ExpectSplit("[default3]:  File \"x.py\", line 2, in f", 3, "  File \"x.py\", line 2, in f");
  ExpectSplit("0: Traceback (most recent call last):", 0, "Traceback (most recent call last):");
  ExpectSplit(" 7:     main()", 7, "    main()");
  ExpectSplit("[1,2]<stderr>:KeyError: 'a'", 2, "KeyError: 'a'");
  ExpectSplit("[default0]:[rank4]:x", 4, "x");
}

TEST(RankPrefixTest, TimestampsAndLevels) {
  ExpectSplit("[2024-03-12 03:08:20,240] [INFO] [runner.py:37:main] hi", -1,
              "[runner.py:37:main] hi");
  ExpectSplit("2024-05-01T10:22:03.114512Z   File \"a.py\", line 1, in f", -1,
              "  File \"a.py\", line 1, in f");
  ExpectSplit("1: [2024-03-12 03:08:21,881] [INFO] [w.py:18:f] Init", 1, "[w.py:18:f] Init");
  ExpectSplit("2024-05-01 10:22:03,114 ERROR Traceback (most recent call last):", -1,
              "Traceback (most recent call last):");
}

TEST(RankPrefixTest, WorkerProcessPrefixesAreStreams) {
  ExpectSplit("(RayWorkerWrapper pid=4417) Traceback (most recent call last):", -1,
              "Traceback (most recent call last):");
  ExpectSplit("(VllmWorker rank=1 pid=12231) KeyError: 'a'", 1, "KeyError: 'a'");
  ExpectSplit("(pid=53316, ip=10.0.0.3)   File \"a.py\", line 1, in f", -1,
              "  File \"a.py\", line 1, in f");
  // Two processes without ranks are two streams; a rank is its own stream.
  const PrefixedLine a = SplitRankPrefix("(pid=11) x");
  const PrefixedLine b = SplitRankPrefix("(pid=12) x");
  EXPECT_NE(a.stream, b.stream);
  EXPECT_GE(a.stream, 0);
  EXPECT_EQ(SplitRankPrefix("[rank3]:x").stream, 3);
  EXPECT_EQ(SplitRankPrefix("x").stream, -1);
  EXPECT_EQ(SplitRankPrefix("(not a prefix) x").text, "(not a prefix) x");
}

TEST(RankPrefixTest, LoggerHeadersOfLoggedTracebacks) {
  ExpectSplit("ERROR 04-08 04:00:01 [core.py:390]   File \"a.py\", line 1, in f", -1,
              "  File \"a.py\", line 1, in f");
  ExpectSplit(
      "(VllmWorker rank=0 pid=7) ERROR 03-25 21:13:53 [multiproc_executor.py:374] "
      "Traceback (most recent call last):",
      0, "Traceback (most recent call last):");
  ExpectSplit("[rank1]:[E1016 03:31:38.919469923 ProcessGroupNCCL.cpp:607] [Rank 1] Watchdog", 1,
              "[Rank 1] Watchdog");
  ExpectSplit("[NeMo W 2024-03-20 18:55:16 nemo_logging:349] /p/x.py:3: UserWarning: w", -1,
              "/p/x.py:3: UserWarning: w");
  ExpectSplit("stderr: │ /p/x.py:12 in f │", -1, "│ /p/x.py:12 in f │");
}

TEST(RankPrefixTest, LeavesOtherLinesAlone) {
  ExpectSplit("    return x[0]", -1, "    return x[0]");
  ExpectSplit("[E ProcessGroupNCCL.cpp:563] Watchdog", -1, "[E ProcessGroupNCCL.cpp:563] Watchdog");
  ExpectSplit("KeyError: 'a'", -1, "KeyError: 'a'");
  ExpectSplit("12:30 is not a prefix", -1, "12:30 is not a prefix");
}

}  // namespace
}  // namespace smallfix
