#include "engine/localize/pasted_forms.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/localize/traceback_parser.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> Rewrite(const std::vector<std::string>& lines) {
  PastedForms forms;
  std::vector<std::string> out;
  for (const std::string& line : lines) forms.Rewrite(0, line, &out);
  return out;
}

TEST(PastedFormsTest, RichBoxFramesAndAWrappedPath) {
  EXPECT_THAT(
      Rewrite(
          {"╭──── Traceback (most recent call last) ────╮",
           "│ /home/a/src/fastzero/fastzero/utils/config.py:41 in from_dict │",
           "│ ❱  41 │   stage = cfg[\"zero\"] │",
           "│ /home/xxx/envs/ml/lib/python3.10/site-packages/torch/distributed/launcher/api.p │",
           "│ y:134 in __call__                                                  │",
           "╰───────────────────────────────────────────╯", "KeyError: 'zero'"}),
      ElementsAre("Traceback (most recent call last):",
                  "  File \"/home/a/src/fastzero/fastzero/utils/config.py\", line 41, in from_dict",
                  "    ❱  41 │   stage = cfg[\"zero\"]",
                  "  File \"/home/xxx/envs/ml/lib/python3.10/site-packages/torch/distributed/"
                  "launcher/api.py\", line 134, in __call__",
                  "KeyError: 'zero'"));
}

TEST(PastedFormsTest, RichFrameHeadersWrappedAtSpacesOrAnywhere) {
  EXPECT_THAT(Rewrite({"╭─ Traceback (most recent call last) ─╮",
                       "│ /src/fastzero/fastzero/utils/config.py:57 in │", "│ __init__ │",
                       "│                                     │",
                       "│ /src/fastzero/fastzero/runtime/engine.py:59 i │", "│ n step │",
                       "│ ❱  59 │ x() │", "╰─────╯"}),
              ElementsAre("Traceback (most recent call last):",
                          "  File \"/src/fastzero/fastzero/utils/config.py\", line 57, in <module>",
                          "  File \"/src/fastzero/fastzero/runtime/engine.py\", line 59, in step",
                          "    ❱  59 │ x()"));
}

TEST(PastedFormsTest, BoxRowsOutsideATracebackBoxPassThrough) {
  // pip's "│ exit code: 1" is not a rich traceback.
  EXPECT_THAT(Rewrite({"  │ exit code: 1"}), ElementsAre("  │ exit code: 1"));
}

TEST(PastedFormsTest, LoguruMarkerAndTorchrunRootCause) {
  EXPECT_THAT(Rewrite({"> File \"/p/x.py\", line 7, in main"}),
              ElementsAre("  File \"/p/x.py\", line 7, in main"));
  EXPECT_THAT(Rewrite({"  traceback : Traceback (most recent call last):"}),
              ElementsAre("Traceback (most recent call last):"));
}

TEST(PastedFormsTest, IPythonEightAndOlderAndColab) {
  EXPECT_THAT(
      Rewrite({"KeyError                                  Traceback (most recent call last)",
               "Cell In[3], line 5", "File /p/fastzero/x.py:41, in from_dict(cls, cfg)",
               "---> 41     stage = cfg[1]"}),
      ElementsAre(
          "Traceback (most recent call last):", "  File \"<ipython-cell>\", line 5, in <module>",
          "  File \"/p/fastzero/x.py\", line 41, in from_dict", "    stage = cfg[1]"));
  // Older IPython and Colab print the line number only in the marker.
  EXPECT_THAT(
      Rewrite({"/p/fastzero/x.py in get(self, n)", "     67 a = 1", "---> 69     return a // n"}),
      ElementsAre("     67 a = 1", "  File \"/p/fastzero/x.py\", line 69, in get",
                  "    return a // n"));
  EXPECT_THAT(
      Rewrite({"[/usr/local/lib/python3.10/dist-packages/trl/sft.py](https://localhost:8080/#) "
               "in __init__(self, model)",
               "----> 6 x()"}),
      ElementsAre("  File \"/usr/local/lib/python3.10/dist-packages/trl/sft.py\", line 6, "
                  "in __init__",
                  "    x()"));
}

TEST(PastedFormsTest, CutFrameLines) {
  EXPECT_TRUE(
      IsCutFrameLine("  File \"/home/a/.cache/pypoetry/virtualenvs/fz/lib/python3.11/site-pa"));
  EXPECT_TRUE(IsCutFrameLine("  File \"/p/x.py\", line "));
  EXPECT_FALSE(IsCutFrameLine("  File \"/p/x.py\", line 3, in f"));
  EXPECT_FALSE(IsCutFrameLine("    return x"));
}

TEST(PastedFormsTest, ParseJoinsHardWrappedFramesAcrossPrefixes) {
  const ParsedFailure parsed = ParseFailureText(
      "[rank0]:Traceback (most recent call last):\n"
      "[rank0]:  File \"/home/alice/src/fastzero/fastze\n"
      "ro/utils/config.py\", line 69, in get_grad_accum_steps\n"
      "[rank0]:    return a // b\n"
      "[rank0]:ZeroDivisionError: integer division or modulo by zero\n");
  ASSERT_EQ(parsed.traces.size(), 1u);
  ASSERT_EQ(parsed.traces[0].frames.size(), 1u);
  EXPECT_EQ(parsed.traces[0].frames[0].path, "/home/alice/src/fastzero/fastzero/utils/config.py");
  EXPECT_EQ(parsed.traces[0].frames[0].line, 69);
  EXPECT_EQ(parsed.traces[0].rank, 0);
  EXPECT_TRUE(parsed.joined_wrapped_lines);
}

TEST(PastedFormsTest, WrapsAfterTheLineNumberOrInsideTheFunction) {
  // Cut at 72 columns after ", in": the function continues on the next line.
  const std::string cut_in =
      "  File \"/home/alice/src/fastzero/fastzero/comm/wrappers.py\", line 24, in";
  ASSERT_EQ(cut_in.size(), 72u);
  ParsedFailure parsed =
      ParseFailureText("Traceback (most recent call last):\n" + cut_in +
                       "\n get_rank\n    return dist.get_rank()\nRuntimeError: x\n");
  ASSERT_EQ(parsed.traces.size(), 1u);
  ASSERT_EQ(parsed.traces[0].frames.size(), 1u);
  EXPECT_EQ(parsed.traces[0].frames[0].function, "get_rank");
  // A frame without source whose next line is the exception line is not joined with it.
  parsed = ParseFailureText(
      "Traceback (most recent call last):\n"
      "  File \"/home/alice/src/fastzero/fastzero/ops/builder.py\", line 9, in cuda_home\n"
      "  File \"<frozen os>\", line 679, in __getitem__\nKeyError: 'CUDA_HOME'\n");
  ASSERT_EQ(parsed.traces.size(), 1u);
  EXPECT_EQ(parsed.traces[0].exception_type, "KeyError");
  EXPECT_EQ(parsed.traces[0].frames.size(), 2u);
  EXPECT_FALSE(parsed.joined_wrapped_lines);
}

TEST(PastedFormsTest, NothingSpecialIsUnchanged) {
  EXPECT_THAT(Rewrite({"plain text", "  File \"a.py\", line 1, in f", ""}),
              ElementsAre("plain text", "  File \"a.py\", line 1, in f", ""));
  EXPECT_THAT(Rewrite({}), IsEmpty());
}

}  // namespace
}  // namespace smallfix
