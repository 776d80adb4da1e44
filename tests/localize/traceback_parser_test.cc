#include "engine/localize/traceback_parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace smallfix {
namespace {

const Trace& Last(const ParsedFailure& parsed, TraceKind kind = TraceKind::kException) {
  for (auto it = parsed.traces.rbegin(); it != parsed.traces.rend(); ++it) {
    if (it->kind == kind) return *it;
  }
  static const Trace kNone;
  ADD_FAILURE() << "no trace of that kind";
  return kNone;
}

TEST(TracebackParserTest, PlainTraceback) {
  const ParsedFailure parsed = ParseFailureText(
      "Traceback (most recent call last):\n"
      "  File \"/home/a/p/main.py\", line 9, in <module>\n"
      "    main()\n"
      "  File \"/home/a/p/pkg/mod.py\", line 41, in from_dict\n"
      "    stage = cfg[\"zero\"][\"stage\"]\n"
      "            ~~~^^^^^^^^\n"
      "KeyError: 'zero'\n");
  ASSERT_EQ(parsed.traces.size(), 1u);
  const Trace& trace = parsed.traces[0];
  EXPECT_EQ(trace.exception_type, "KeyError");
  EXPECT_EQ(trace.message, "'zero'");
  ASSERT_EQ(trace.frames.size(), 2u);
  EXPECT_EQ(trace.frames[1].path, "/home/a/p/pkg/mod.py");
  EXPECT_EQ(trace.frames[1].line, 41);
  EXPECT_EQ(trace.frames[1].function, "from_dict");
  EXPECT_FALSE(trace.truncated);
}

TEST(TracebackParserTest, ChainedTracebacksMarkTheEarlierOnes) {
  for (const char* separator : {"During handling of the above exception, another exception occurred:",
                                "The above exception was the direct cause of the following exception:"}) {
    const ParsedFailure parsed = ParseFailureText(std::string(
        "Traceback (most recent call last):\n"
        "  File \"a.py\", line 1, in f\n"
        "KeyError: 'x'\n\n") + separator + "\n\n"
        "Traceback (most recent call last):\n"
        "  File \"a.py\", line 3, in f\n"
        "pkg.errors.ConfigError: bad\n");
    ASSERT_EQ(parsed.traces.size(), 2u);
    EXPECT_TRUE(parsed.traces[0].superseded);
    EXPECT_FALSE(parsed.traces[1].superseded);
    EXPECT_EQ(parsed.traces[1].exception_type, "pkg.errors.ConfigError");
  }
}

TEST(TracebackParserTest, SyntaxErrorForm) {
  const ParsedFailure parsed = ParseFailureText(
      "Traceback (most recent call last):\n"
      "  File \"/x/engine.py\", line 34, in __init__\n"
      "    from p.timers import T\n"
      "  File \"/x/p/timers.py\", line 36\n"
      "    logger.info(f\"{s[\"step\"]}\")\n"
      "                     ^^^^\n"
      "SyntaxError: f-string: unmatched '['\n");
  const Trace& trace = Last(parsed);
  EXPECT_EQ(trace.exception_type, "SyntaxError");
  ASSERT_EQ(trace.frames.size(), 2u);
  EXPECT_EQ(trace.frames[1].path, "/x/p/timers.py");
  EXPECT_EQ(trace.frames[1].line, 36);
  EXPECT_EQ(trace.frames[1].function, "");
}

TEST(TracebackParserTest, PytestLongStyle) {
  const ParsedFailure parsed = ParseFailureText(
      "______________ test_x ______________\n"
      "\n"
      "    def test_x():\n"
      ">       assert comm.get_rank() == 0\n"
      "\n"
      "tests/test_comm.py:13: \n"
      "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n"
      "pkg/wrappers.py:24: in get_rank\n"
      "    return dist.get_rank(group=group)\n"
      "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n"
      "\n"
      "    def _get_default_group():\n"
      ">           raise RuntimeError(\n"
      "E           RuntimeError: Default process group has not been initialized\n"
      "\n"
      "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py:584: RuntimeError\n"
      "=========== short test summary info ===========\n"
      "FAILED tests/test_comm.py::test_x - RuntimeError: Default process group has not b...\n");
  const Trace& trace = Last(parsed);
  EXPECT_EQ(trace.form, "pytest");
  EXPECT_EQ(trace.exception_type, "RuntimeError");
  EXPECT_EQ(trace.message, "Default process group has not been initialized");
  ASSERT_EQ(trace.frames.size(), 3u);
  EXPECT_EQ(trace.frames[0].path, "tests/test_comm.py");
  EXPECT_EQ(trace.frames[1].function, "get_rank");
  EXPECT_EQ(trace.frames[2].line, 584);
  EXPECT_EQ(Last(parsed, TraceKind::kSummary).exception_type, "RuntimeError");
}

TEST(TracebackParserTest, PytestsOwnFailedOutcomeIsAFailure) {
  // pytest.raises that saw no exception fails the test with pytest's own `Failed`.
  const ParsedFailure parsed = ParseFailureText(
      "    def test_invalid_seed():\n"
      "        with pytest.raises(ValueError):\n"
      ">           seed_everything(\"invalid\")\n"
      "E           Failed: DID NOT RAISE <class 'ValueError'>\n"
      "\n"
      "tests/test_seed.py:51: Failed\n"
      "=========== short test summary info ===========\n"
      "FAILED tests/test_seed.py::test_invalid_seed - Failed: DID NOT RAISE <class 'ValueError'>\n");
  const Trace& trace = Last(parsed, TraceKind::kException);
  EXPECT_EQ(trace.form, "pytest");
  EXPECT_EQ(trace.exception_type, "Failed");
  EXPECT_EQ(trace.message, "DID NOT RAISE <class 'ValueError'>");
  ASSERT_EQ(trace.frames.size(), 1u);
  EXPECT_EQ(trace.frames[0].path, "tests/test_seed.py");
  EXPECT_EQ(trace.frames[0].line, 51);
}

TEST(TracebackParserTest, PytestShortStyleAndCollectionError) {
  const ParsedFailure parsed = ParseFailureText(
      "__________ ERROR collecting tests/test_zero.py __________\n"
      "ImportError while importing test module '/r/tests/test_zero.py'.\n"
      "Hint: make sure your test modules/packages have valid Python names.\n"
      "Traceback:\n"
      "/usr/lib/python3.11/importlib/__init__.py:126: in import_module\n"
      "    return _bootstrap._gcd_import(name[level:], package, level)\n"
      "tests/test_zero.py:3: in <module>\n"
      "    from p.engine import E\n"
      "p/compat.py:3: in <module>\n"
      "    from torch._six import inf\n"
      "E   ModuleNotFoundError: No module named 'torch._six'\n"
      "=========== short test summary info ===========\n");
  const Trace& trace = Last(parsed);
  EXPECT_EQ(trace.exception_type, "ModuleNotFoundError");
  ASSERT_EQ(trace.frames.size(), 3u);
  EXPECT_EQ(trace.frames[2].path, "p/compat.py");
  EXPECT_EQ(trace.frames[2].function, "<module>");
}

TEST(TracebackParserTest, PytestLineStyle) {
  const ParsedFailure parsed = ParseFailureText(
      "/r/p/saver.py:56: TypeError: F.partition() missing 1 required positional argument: 'w'\n");
  const Trace& trace = Last(parsed);
  EXPECT_EQ(trace.exception_type, "TypeError");
  EXPECT_EQ(trace.message, "F.partition() missing 1 required positional argument: 'w'");
  ASSERT_EQ(trace.frames.size(), 1u);
  EXPECT_EQ(trace.frames[0].line, 56);
}

TEST(TracebackParserTest, PytestAssertRewriting) {
  const ParsedFailure parsed = ParseFailureText(
      ">       assert x == 2\n"
      "E       assert 1 == 2\n"
      "\n"
      "tests/test_a.py:4: AssertionError\n");
  const Trace& trace = Last(parsed);
  EXPECT_EQ(trace.exception_type, "AssertionError");
  EXPECT_EQ(trace.message, "assert 1 == 2");
}

TEST(TracebackParserTest, InterleavedRanksAreSeparateStreams) {
  const ParsedFailure parsed = ParseFailureText(
      "[rank1]:Traceback (most recent call last):\n"
      "[rank0]:Traceback (most recent call last):\n"
      "[rank0]:  File \"a.py\", line 1, in f\n"
      "[rank1]:  File \"a.py\", line 2, in g\n"
      "[rank1]:ValueError: one\n"
      "[rank0]:KeyError: 'zero'\n");
  ASSERT_EQ(parsed.traces.size(), 2u);
  EXPECT_EQ(parsed.traces[0].rank, 1);
  EXPECT_EQ(parsed.traces[0].frames[0].line, 2);
  EXPECT_EQ(parsed.traces[1].rank, 0);
  EXPECT_EQ(parsed.traces[1].exception_type, "KeyError");
  EXPECT_GT(parsed.traces[1].order, parsed.traces[0].order);
}

TEST(TracebackParserTest, SpawnForm) {
  const ParsedFailure parsed = ParseFailureText(
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3/dist-packages/torch/multiprocessing/spawn.py\", line 160, in join\n"
      "    raise ProcessRaisedException(msg, error_index, failed_process.pid)\n"
      "torch.multiprocessing.spawn.ProcessRaisedException: \n"
      "\n"
      "-- Process 1 terminated with the following error:\n"
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3/dist-packages/torch/multiprocessing/spawn.py\", line 69, in _wrap\n"
      "    fn(i, *args)\n"
      "  File \"/h/p/sched.py\", line 58, in run\n"
      "    for cmd in self.schedule.steps():\n"
      "TypeError: 'NoneType' object is not iterable\n");
  ASSERT_EQ(parsed.traces.size(), 2u);
  EXPECT_EQ(parsed.traces[0].exception_type, "torch.multiprocessing.spawn.ProcessRaisedException");
  EXPECT_EQ(parsed.traces[1].exception_type, "TypeError");
  EXPECT_EQ(parsed.traces[1].frames.back().path, "/h/p/sched.py");
}

TEST(TracebackParserTest, FaulthandlerAndPySpyDumps) {
  const ParsedFailure parsed = ParseFailureText(
      "Timeout (0:00:12)!\n"
      "Thread 0x00007f55d8718040 (most recent call first):\n"
      "  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 1541 in all_reduce\n"
      "  File \"/h/p/comm.py\", line 34 in all_reduce\n"
      "  File \"/h/p/train.py\", line 84 in main\n"
      "\n"
      "Thread 48213 (idle): \"MainThread\"\n"
      "    barrier (torch/distributed/distributed_c10d.py:3696)\n"
      "    save_checkpoint (p/saver.py:33)\n"
      "    <module> (train.py:89)\n");
  ASSERT_EQ(parsed.traces.size(), 2u);
  EXPECT_EQ(parsed.traces[0].kind, TraceKind::kStackDump);
  EXPECT_EQ(parsed.traces[0].form, "faulthandler");
  // Reversed to outermost first like tracebacks.
  EXPECT_EQ(parsed.traces[0].frames.front().path, "/h/p/train.py");
  EXPECT_EQ(parsed.traces[0].frames.back().function, "all_reduce");
  EXPECT_EQ(parsed.traces[1].form, "py-spy");
  EXPECT_EQ(parsed.traces[1].frames[1].path, "p/saver.py");
  EXPECT_EQ(parsed.traces[1].frames[1].line, 33);
  ASSERT_FALSE(parsed.hang_lines.empty());
  EXPECT_EQ(parsed.hang_lines[0], "Timeout (0:00:12)!");
}

TEST(TracebackParserTest, TruncatedTracebackKeepsItsFrames) {
  const ParsedFailure parsed = ParseFailureText(
      "Traceback (most recent call last):\n"
      "  File \"/a/x.py\", line 7, in <module>\n"
      "...\n"
      "  File \"/a/p/layers.py\", line 43, in forward\n"
      "    out = torch.matmul(x, w)\n");
  ASSERT_EQ(parsed.traces.size(), 1u);
  EXPECT_TRUE(parsed.traces[0].truncated);
  EXPECT_EQ(parsed.traces[0].frames.size(), 2u);
}

TEST(TracebackParserTest, ExceptionLineShapes) {
  std::string type, message;
  EXPECT_TRUE(ParseExceptionLine("KeyError: 'a'", &type, &message));
  EXPECT_EQ(type, "KeyError");
  EXPECT_TRUE(ParseExceptionLine("torch.cuda.OutOfMemoryError: CUDA out of memory.", &type, &message));
  EXPECT_TRUE(ParseExceptionLine("KeyboardInterrupt", &type, &message));
  EXPECT_TRUE(ParseExceptionLine("CheckpointError: no checkpoint", &type, &message));
  EXPECT_FALSE(ParseExceptionLine("Traceback (most recent call last):", &type, &message));
  EXPECT_FALSE(ParseExceptionLine("step 3 loss 4.2", &type, &message));
  EXPECT_FALSE(ParseExceptionLine("Hint: make sure", &type, &message));
  EXPECT_FALSE(ParseExceptionLine("", &type, &message));
}

TEST(TracebackParserTest, GarbageAndEmptyGiveNothing) {
  EXPECT_TRUE(ParseFailureText("").traces.empty());
  EXPECT_TRUE(ParseFailureText("hello\nworld\n:::\n\n").traces.empty());
  std::string noise;
  for (int i = 0; i < 5000; ++i) noise.push_back(static_cast<char>((i * 131) % 251 + 1));
  EXPECT_TRUE(ParseFailureText(noise).traces.empty());
}

TEST(TracebackParserTest, HeadlessTracebackStartsAtItsFirstFrame) {
  const ParsedFailure parsed = ParseFailureText(
      "...\n"
      "  File \"/home/a/p/pkg/mod.py\", line 41, in from_dict\n"
      "    stage = cfg[\"zero\"][\"stage\"]\n"
      "KeyError: 'zero'\n");
  const Trace& trace = Last(parsed);
  EXPECT_TRUE(trace.headless);
  EXPECT_EQ(trace.exception_type, "KeyError");
  ASSERT_EQ(trace.frames.size(), 1u);
  EXPECT_EQ(trace.frames[0].line, 41);
}

TEST(TracebackParserTest, IndentedExceptionLineOfAnIndentedTraceback) {
  // pip's subprocess box and torchrun's root cause indent the whole traceback; the exception
  // line is never deeper than the frames, the source lines always are.
  const ParsedFailure parsed = ParseFailureText(
      "  ╰─> [6 lines of output]\n"
      "      Traceback (most recent call last):\n"
      "        File \"/src/fastzero/ops/builder.py\", line 9, in cuda_home\n"
      "          return os.environ[\"CUDA_HOME\"]\n"
      "          KeyError: 'not this one, a source line'\n"
      "      KeyError: 'CUDA_HOME'\n"
      "      [end of output]\n");
  const Trace& trace = Last(parsed);
  EXPECT_EQ(trace.exception_type, "KeyError");
  EXPECT_EQ(trace.message, "'CUDA_HOME'");
  EXPECT_FALSE(trace.truncated);
}

TEST(TracebackParserTest, TracebackInsidePytestErrorLines) {
  const ParsedFailure parsed = ParseFailureText(
      "E       torch.multiprocessing.spawn.ProcessRaisedException: \n"
      "E       \n"
      "E       -- Process 1 terminated with the following error:\n"
      "E       Traceback (most recent call last):\n"
      "E         File \"/usr/lib/python3/dist-packages/torch/multiprocessing/spawn.py\", line 69, "
      "in _wrap\n"
      "E           fn(i, *args)\n"
      "E         File \"/src/fastzero/utils/config.py\", line 69, in get_grad_accum_steps\n"
      "E           return a // b\n"
      "E       ZeroDivisionError: integer division or modulo by zero\n"
      "\n"
      "/usr/lib/python3/dist-packages/torch/multiprocessing/spawn.py:160: "
      "ProcessRaisedException\n");
  bool found = false;
  for (const Trace& trace : parsed.traces) {
    if (trace.exception_type != "ZeroDivisionError") continue;
    found = true;
    ASSERT_EQ(trace.frames.size(), 2u);
    EXPECT_EQ(trace.frames[1].path, "/src/fastzero/utils/config.py");
    EXPECT_FALSE(trace.truncated);
  }
  EXPECT_TRUE(found);
}

TEST(TracebackParserTest, PrintedWarningsAreOneFrameTraces) {
  const ParsedFailure parsed = ParseFailureText(
      "step 0\n"
      "  /src/fastzero/utils/warmup.py:16: FutureWarning: `warmup_fraction` is deprecated\n"
      "    warmup = warmup_steps(total_steps, warmup_fraction=0.1)\n");
  const Trace& trace = Last(parsed);
  EXPECT_EQ(trace.form, "warning");
  EXPECT_EQ(trace.exception_type, "FutureWarning");
  ASSERT_EQ(trace.frames.size(), 1u);
  EXPECT_EQ(trace.frames[0].line, 16);
}

TEST(TracebackParserTest, AnExceptionLineAlone) {
  EXPECT_EQ(Last(ParseFailureText("ImportError: cannot import name 'X' from 'a.b'\n"),
                 TraceKind::kSummary)
                .exception_type,
            "ImportError");
  // An issue title and a backticked quote in prose.
  EXPECT_EQ(Last(ParseFailureText("# KeyError: 'zero'\n"), TraceKind::kSummary).message, "'zero'");
  const ParsedFailure prose = ParseFailureText(
      "When it gathers I get `AttributeError: module 'torch' has no attribute 'x'` "
      "and it stops.\n");
  const Trace& quoted = Last(prose, TraceKind::kSummary);
  EXPECT_EQ(quoted.exception_type, "AttributeError");
  EXPECT_EQ(quoted.form, "error-line");
  // Log levels and prose are not exception lines.
  EXPECT_TRUE(ParseFailureText("ERROR: Could not build wheels\nNote: see above\n").traces.empty());
}

}  // namespace
}  // namespace smallfix
