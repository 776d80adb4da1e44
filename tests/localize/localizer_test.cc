#include "engine/localize/localizer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/base/temp_dir.h"
#include "engine/localize/site_ranker.h"
#include "engine/localize/site_statement.h"
#include "engine/localize/traceback_parser.h"
#include "engine/source/document.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string kRepo = std::string(SMALLFIX_SOURCE_DIR) + "/tests/data/localize/repo";

// A rank's traceback into the corpus repo (fastzero/utils/config.py:69, get_grad_accum_steps).
std::string ZeroDivision(const std::string& prefix, const std::string& root) {
  return prefix + "Traceback (most recent call last):\n" + prefix + "  File \"" + root +
         "/examples/train.py\", line 63, in main\n" + prefix + "    engine = F()\n" + prefix +
         "  File \"" + root + "/fastzero/utils/config.py\", line 69, in get_grad_accum_steps\n" +
         prefix + "    return a // b\n" + prefix +
         "ZeroDivisionError: integer division or modulo by zero\n";
}

const char kLauncherTraceback[] =
    "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0\n"
    "Traceback (most recent call last):\n"
    "  File \"/opt/conda/bin/torchrun\", line 14, in <module>\n"
    "    sys.exit(main())\n"
    "  File \"/usr/lib/python3/dist-packages/torch/distributed/launcher/api.py\", line 246, in launch_agent\n"
    "    raise ChildFailedError(\n"
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
    "============================================================\n"
    "examples/train.py FAILED\n";

TEST(LocalizerTest, SameErrorFromSeveralRanksIsOneSiteAndTheLauncherIsNotBlamed) {
  const std::string log = ZeroDivision("[default0]:", "/home/x/src/proj") +
                          ZeroDivision("[default1]:", "/home/x/src/proj") + kLauncherTraceback;
  absl::StatusOr<Localization> result = Localize(kRepo, log);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->symptom.exception_type, "ZeroDivisionError");
  EXPECT_EQ(result->symptom.symptom_class, "zero-division");
  ASSERT_FALSE(result->sites.empty());
  const Site& top = result->sites[0];
  EXPECT_EQ(top.file, "fastzero/utils/config.py");
  EXPECT_EQ(top.line, 69);
  EXPECT_EQ(top.function, "get_grad_accum_steps");
  EXPECT_THAT(top.ranks, ElementsAre(0, 1));
  EXPECT_DOUBLE_EQ(top.score, 1.0);
  for (const Site& site : result->sites) {
    EXPECT_EQ(site.file.find("launcher"), std::string::npos);
    EXPECT_GE(site.score, 0.0);
    EXPECT_LE(site.score, 1.0);
  }
}

TEST(LocalizerTest, OnlyALauncherTracebackGivesNoSite) {
  absl::StatusOr<Localization> result = Localize(kRepo, kLauncherTraceback);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->sites.empty());
}

TEST(LocalizerTest, InstalledPathsAndCrlfAnsiIssueBody) {
  const std::string issue =
      "### Describe the bug\r\n\r\n```\r\n"
      "\x1b[31mTraceback (most recent call last):\x1b[0m\r\n"
      "  File \"\x1b[36m/workspace/x/train.py\x1b[0m\", line 76, in main\r\n"
      "    engine.step()\r\n"
      "  File \"/opt/conda/lib/python3.10/site-packages/fastzero/runtime/zero/partition.py\", line 46, in reduce_gradients\r\n"
      "    p.grad.data.div_(self.world_size)\r\n"
      "\x1b[1;31mAttributeError: 'NoneType' object has no attribute 'data'\x1b[0m\r\n"
      "```\r\n";
  LocalizeOptions options;
  options.kind = FailureKind::kIssue;
  absl::StatusOr<Localization> result = Localize(kRepo, issue, options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->symptom.symptom_class, "none-attribute");
  EXPECT_EQ(result->symptom.fields.at("attr"), "data");
  ASSERT_EQ(result->sites.size(), 1u);  // the user's train.py is not the repo's
  EXPECT_EQ(result->sites[0].file, "fastzero/runtime/zero/partition.py");
  EXPECT_EQ(result->sites[0].function, "reduce_gradients");
  EXPECT_TRUE(result->sites[0].ranks.empty());
}

TEST(LocalizerTest, SiteLeadsToItsStatementNode) {
  absl::StatusOr<Localization> result =
      Localize(kRepo, ZeroDivision("", "/srv/proj"));
  ASSERT_TRUE(result.ok()) << result.status();
  const Site& site = result->sites.at(0);
  absl::StatusOr<Document> document = Document::Load(kRepo + "/" + site.file);
  ASSERT_TRUE(document.ok());
  std::optional<TSNode> statement = FindSiteStatement(*document, site);
  ASSERT_TRUE(statement.has_value());
  EXPECT_EQ(ts_node_start_byte(*statement), site.start_byte);
  EXPECT_THAT(std::string(document->NodeText(*statement)), HasSubstr("return self.train_batch_size //"));
}

TEST(LocalizerTest, TestFramesAreDemoted) {
  const std::string log =
      "tests/test_config.py:29: in test_batch\n"
      "    cfg = FastZeroConfig({})\n"
      "fastzero/utils/config.py:74: in validate\n"
      "    assert self.train_batch_size == expected, (\n"
      "E   AssertionError: Check batch related parameters.\n";
  absl::StatusOr<Localization> result = Localize(kRepo, log);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->sites.size(), 2u);
  EXPECT_EQ(result->sites[0].file, "fastzero/utils/config.py");
  EXPECT_EQ(result->sites[1].file, "tests/test_config.py");
  EXPECT_LT(result->sites[1].score, 0.5);
}

TEST(LocalizerTest, TheRepoLauncherThatRunsATestIsNotTheSuspect) {
  // As torch.multiprocessing's spawn re-raises a rank's error: the repo's launcher calls the
  // test, whose assertion fails. The test's frames come first, the launcher's after them.
  const std::string log =
      "E       -- Process 0 terminated with the following error:\n"
      "E       Traceback (most recent call last):\n"
      "E         File \"/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py\", line 87, in _wrap\n"
      "E           fn(i, *args)\n"
      "E         File \"" + kRepo + "/fastzero/launcher/runner.py\", line 40, in main\n"
      "E           run()\n"
      "E         File \"" + kRepo + "/tests/test_comm.py\", line 9, in test_all_reduce_single\n"
      "E           assert t.sum() == 4\n"
      "E       AssertionError\n";
  absl::StatusOr<Localization> result = Localize(kRepo, log);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->sites.size(), 2u);
  EXPECT_EQ(result->sites[0].file, "tests/test_comm.py");
  EXPECT_EQ(result->sites[1].file, "fastzero/launcher/runner.py");
  EXPECT_LT(result->sites[1].score, result->sites[0].score);
}

TEST(LocalizerTest, JUnitOptionJoinsTheConsoleOutput) {
  LocalizeOptions options;
  options.junit_xml =
      "<testsuite><testcase classname=\"tests.test_pipe\" name=\"test_last\">"
      "<failure message=\"TypeError: 'NoneType' object is not iterable\">"
      "&gt;       for cmd in self.schedule.steps():\n"
      "E       TypeError: 'NoneType' object is not iterable\n\n"
      "fastzero/runtime/pipe/schedule.py:58: TypeError</failure></testcase></testsuite>";
  absl::StatusOr<Localization> result = Localize(kRepo, "1 failed in 0.1s\n", options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->symptom.symptom_class, "none-iterate");
  ASSERT_FALSE(result->sites.empty());
  EXPECT_EQ(result->sites[0].function, "run");
}

// An exception line alone, or a frame into the repo with nothing else, is never "no failure
// found": the site comes from the repo's text, and the notes say how it was found.
TEST(LocalizerTest, AnExceptionLineAloneFindsTheSiteInTheRepo) {
  absl::StatusOr<Localization> only = Localize(
      kRepo, "ImportError: cannot import name 'LRScheduler' from 'torch.optim.lr_scheduler'\n");
  ASSERT_TRUE(only.ok()) << only.status();
  ASSERT_FALSE(only->sites.empty());
  EXPECT_EQ(only->sites[0].file, "fastzero/runtime/lr_schedules.py");
  EXPECT_EQ(only->sites[0].line, 4);
  EXPECT_LT(only->sites[0].score, 0.5);  // below any frame
  EXPECT_THAT(only->notes, testing::Contains(HasSubstr("searching the repo")));

  absl::StatusOr<Localization> frame =
      Localize(kRepo, "  File \"/x/fastzero/utils/config.py\", line 69, in get_grad_accum_steps\n");
  ASSERT_TRUE(frame.ok()) << frame.status();
  ASSERT_FALSE(frame->sites.empty());
  EXPECT_EQ(frame->sites[0].line, 69);
  EXPECT_THAT(frame->notes, testing::Contains(HasSubstr("without its \"Traceback")));

  absl::StatusOr<Localization> unknown =
      Localize(kRepo, "SomethingError: nothing the repo names\n");
  ASSERT_TRUE(unknown.ok()) << unknown.status();
  EXPECT_TRUE(unknown->sites.empty());
  EXPECT_THAT(unknown->notes, testing::Contains(HasSubstr("found nothing")));
}

// A test's call that the callee's signature refuses: Python raises while binding it, so only
// the test's frame is printed. The callee's def, which puts the argument ahead of *args, is
// the first site, above the test's line.
TEST(LocalizerTest, ARefusedCallFromATestFindsTheCalleesDef) {
  absl::StatusOr<TempDir> dir = TempDir::Create("localizer-signature-test");
  ASSERT_TRUE(dir.ok()) << dir.status();
  std::filesystem::create_directories(dir->path() + "/pkg");
  std::filesystem::create_directories(dir->path() + "/tests");
  std::ofstream(dir->path() + "/pkg/bars.py")
      << "def tqdm(main_process_only=True, *args, **kwargs):\n    return list(*args)\n";
  std::ofstream(dir->path() + "/tests/test_bars.py")
      << "from pkg.bars import tqdm\n\n\ndef test_tqdm():\n"
         "    assert tqdm(range(3), main_process_only=True) == [0, 1, 2]\n";
  absl::StatusOr<Localization> result =
      Localize(dir->path(),
               "    def test_tqdm():\n"
               ">       assert tqdm(range(3), main_process_only=True) == [0, 1, 2]\n"
               "E       TypeError: tqdm() got multiple values for argument 'main_process_only'\n"
               "\n"
               "tests/test_bars.py:5: TypeError\n");
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_GE(result->sites.size(), 2u);
  EXPECT_EQ(result->sites[0].file, "pkg/bars.py");
  EXPECT_EQ(result->sites[0].line, 1);
  EXPECT_EQ(result->sites[1].file, "tests/test_bars.py");
  EXPECT_THAT(result->notes, testing::Contains(HasSubstr("the callee's def is a site")));
}

TEST(LocalizerTest, TheCallerThatPassedAWrongObjectIsSecond) {
  // Only the callee's frame was pasted: the caller comes from the repo.
  absl::StatusOr<Localization> result =
      Localize(kRepo,
               "  File \"/x/fastzero/utils/groups.py\", line 6, in group_sizes\n"
               "    tp = parallel.tensor_parallel\n"
               "AttributeError: 'CSVConfig' object has no attribute 'tensor_parallel'\n");
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_GE(result->sites.size(), 2u);
  EXPECT_EQ(result->sites[0].line, 6);
  EXPECT_EQ(result->sites[1].file, "fastzero/utils/groups.py");
  EXPECT_EQ(result->sites[1].function, "describe_layout");
  // A NoneType receiver is the callee's own business (a missing guard): no caller is added.
  absl::StatusOr<Localization> none =
      Localize(kRepo,
               "  File \"/x/fastzero/utils/groups.py\", line 6, in group_sizes\n"
               "AttributeError: 'NoneType' object has no attribute 'tensor_parallel'\n");
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_EQ(none->sites.size(), 1u);
}

TEST(LocalizerTest, VendoredPackageFramesRankBelowTheReposOwn) {
  const PathMapper mapper = PathMapper::ForFiles(
      {"fastzero/utils/config.py", "third_party/apex/apex/normalization/fused_layer_norm.py"});
  const ParsedFailure parsed = ParseFailureText(
      "Traceback (most recent call last):\n"
      "  File \"/env/site-packages/fastzero/utils/config.py\", line 69, in get_grad_accum_steps\n"
      "  File \"/env/site-packages/apex/normalization/fused_layer_norm.py\", line 12, in forward\n"
      "RuntimeError: x\n");
  SourceFacts facts("/nonexistent-smallfix-repo");
  std::optional<Localization> result = RankSites(parsed, mapper, facts, LocalizeOptions());
  ASSERT_TRUE(result.has_value());
  ASSERT_EQ(result->sites.size(), 2u);
  EXPECT_EQ(result->sites[0].file, "fastzero/utils/config.py");
  EXPECT_EQ(result->sites[1].file, "third_party/apex/apex/normalization/fused_layer_norm.py");
}

TEST(LocalizerTest, BadInputSaysWhatIsWrong) {
  absl::StatusOr<Localization> empty = Localize(kRepo, "  \n\n");
  ASSERT_FALSE(empty.ok());
  EXPECT_THAT(std::string(empty.status().message()), HasSubstr("empty"));

  std::string binary;
  for (int i = 0; i < 100000; ++i) binary.push_back(static_cast<char>((i * 7919) % 256));
  absl::StatusOr<Localization> bin = Localize(kRepo, binary);
  ASSERT_FALSE(bin.ok());
  EXPECT_THAT(std::string(bin.status().message()), HasSubstr("binary"));

  absl::StatusOr<Localization> garbage = Localize(kRepo, "lorem ipsum\ndolor: sit amet\n");
  ASSERT_FALSE(garbage.ok());
  EXPECT_THAT(std::string(garbage.status().message()), HasSubstr("no failure found"));

  absl::StatusOr<Localization> no_repo = Localize("/nonexistent/repo", "x");
  ASSERT_FALSE(no_repo.ok());
  EXPECT_THAT(std::string(no_repo.status().message()), HasSubstr("not a directory"));

  // A traceback with binary noise around it is still read (best effort).
  absl::StatusOr<Localization> mixed =
      Localize(kRepo, binary.substr(0, 5000) + "\n" + ZeroDivision("", "/a") + binary.substr(0, 5000));
  ASSERT_TRUE(mixed.ok()) << mixed.status();
  EXPECT_EQ(mixed->symptom.symptom_class, "zero-division");
}

long PeakRssKb() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// A 100 MB log of launcher noise with the failure at the end: completes with the right
// answer in bounded time and memory (timing is printed, not asserted).
TEST(LocalizerTest, HundredMegabyteLog) {
  const std::string noise_line =
      "[rank1]:[2024-05-01 10:09:14,647] [INFO] [config.py:79:validate] step 12 loss 4.2 "
      "train_batch_size=4 micro_batch_per_gpu=2 \x1b[32mok\x1b[0m\n";
  std::string log;
  log.reserve((size_t{100} << 20) + 4096);
  while (log.size() < (size_t{100} << 20)) log += noise_line;
  log += ZeroDivision("[rank1]:", "/home/x/src/proj");
  const long rss_before = PeakRssKb();
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<Localization> result = Localize(kRepo, log);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->symptom.symptom_class, "zero-division");
  ASSERT_FALSE(result->sites.empty());
  EXPECT_EQ(result->sites[0].line, 69);
  EXPECT_THAT(result->notes, ::testing::Contains(HasSubstr("only its last")));
  std::printf("100 MB log: %.2f s, peak RSS %ld MB (the input itself is 100 MB; before: %ld MB)\n",
              seconds, PeakRssKb() / 1024, rss_before / 1024);
}

}  // namespace
}  // namespace smallfix
