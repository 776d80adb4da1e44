#include "engine/localize/repo_search.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/localize/symptom.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;

RepoSearch Sources() {
  return RepoSearch::ForTexts({
      {"pkg/sched.py", "import math\nfrom torch.optim.lr_scheduler import LRScheduler, StepLR\n"},
      {"pkg/compat.py", "import torch\nfrom torch._six import inf\n"},
      {"pkg/comm.py",
       "import torch.distributed as dist\n\ndef gather(o, t):\n"
       "    return dist.all_gather_into_tensor(o, t)\n"},
      {"pkg/engine.py",
       "def step(self):\n    self.opt.step()\n    self.opt.step(closure=None,\n"
       "                  grad_scale=2)\n"},
      {"pkg/config.py",
       "def from_dict(cfg):\n    zero = cfg.get(\"zero\", {})\n    return "
       "cfg[\"zero\"][\"stage\"]\n"
       "def dtype(n):\n    DTYPE_X = 1\n    raise ValueError(sorted(DTYPE))\n"},
      {"pkg/groups.py",
       "class P:\n    def __init__(self):\n        self.tp = 1\n\n"
       "def sizes(parallel,\n          world):\n    return parallel.tp\n\n"
       "def layout(cfg):\n    return sizes(cfg, 4)\n"},
      {"tests/test_groups.py", "from pkg.groups import sizes\nsizes(None, 1)\n"},
  });
}

std::vector<std::string> Sites(RepoSearch& search, const std::string& type,
                               const std::string& message) {
  std::vector<std::string> out;
  for (const SearchHit& hit : search.ForSymptom(ClassifySymptom(type, message), 3)) {
    out.push_back(hit.file + ":" + std::to_string(hit.line));
  }
  return out;
}

TEST(RepoSearchTest, ImportStatements) {
  RepoSearch search = Sources();
  EXPECT_THAT(Sites(search, "ImportError",
                    "cannot import name 'LRScheduler' from 'torch.optim.lr_scheduler' (/x.py)"),
              ElementsAre("pkg/sched.py:2"));
  EXPECT_THAT(Sites(search, "ModuleNotFoundError", "No module named 'torch._six'"),
              ElementsAre("pkg/compat.py:2"));
}

TEST(RepoSearchTest, ModuleAttributeAndKeywordCalls) {
  RepoSearch search = Sources();
  EXPECT_THAT(Sites(search, "AttributeError",
                    "module 'torch.distributed' has no attribute 'all_gather_into_tensor'"),
              ElementsAre("pkg/comm.py:4"));
  // The call that passes the keyword (over two lines) comes before the one that does not.
  EXPECT_THAT(Sites(search, "TypeError", "step() got an unexpected keyword argument 'grad_scale'"),
              ElementsAre("pkg/engine.py:3", "pkg/engine.py:2"));
}

// "got multiple values": the calls that pass the keyword, and a def that puts the defaulted
// parameter before `*args` (which takes the first positional argument too), first of all.
TEST(RepoSearchTest, MultipleValuesFindsADefaultBeforeVarargs) {
  RepoSearch search = RepoSearch::ForTexts({
      {"pkg/bars.py",
       "def tqdm(main_process_only: bool = True,\n         *args, **kwargs):\n"
       "    return _tqdm(*args, **kwargs)\n"},
      {"pkg/train.py", "def loop(xs):\n    return tqdm(xs, main_process_only=False)\n"},
      {"pkg/other.py", "def tqdm(*args, main_process_only=True):\n    return args\n"},
  });
  EXPECT_THAT(Sites(search, "TypeError",
                    "tqdm() got multiple values for argument 'main_process_only'"),
              ElementsAre("pkg/bars.py:1", "pkg/train.py:2", "pkg/other.py:1"));
}

TEST(RepoSearchTest, NamesKeysAndAttributeReads) {
  RepoSearch search = Sources();
  EXPECT_THAT(Sites(search, "NameError", "name 'DTYPE' is not defined"),
              ElementsAre("pkg/config.py:6"));
  EXPECT_THAT(Sites(search, "KeyError", "'zero'"), ElementsAre("pkg/config.py:3"));
  // A read of ".tp", not the assignment "self.tp = 1".
  EXPECT_THAT(Sites(search, "AttributeError", "'CSV' object has no attribute 'tp'"),
              ElementsAre("pkg/groups.py:7"));
  EXPECT_THAT(Sites(search, "AssertionError", ""), ElementsAre());
}

TEST(RepoSearchTest, CallersAndParameters) {
  RepoSearch search = Sources();
  std::vector<std::string> callers;
  for (const SearchHit& hit : search.Callers("sizes", 5)) {
    callers.push_back(hit.file + ":" + std::to_string(hit.line));
  }
  // The package's call first, the test's after it; never the def or the import.
  EXPECT_THAT(callers, ElementsAre("pkg/groups.py:10", "tests/test_groups.py:2"));
  std::string function;
  EXPECT_THAT(search.EnclosingParameters("pkg/groups.py", 7, &function),
              ElementsAre("parallel", "world"));
  EXPECT_EQ(function, "sizes");
  EXPECT_EQ(search.Line("pkg/groups.py", 7), "    return parallel.tp");
  EXPECT_EQ(search.Line("pkg/groups.py", 99), std::nullopt);
  EXPECT_EQ(search.Line("missing.py", 1), std::nullopt);
}

}  // namespace
}  // namespace smallfix
