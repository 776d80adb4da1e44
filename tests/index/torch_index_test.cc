// Builds the index over Debian's torch package (~1,100 files): a real code base with deep
// re-exports, inheritance across modules and every Python construct in use.
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "engine/index/repo_index.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

constexpr char kTorch[] = "/usr/lib/python3/dist-packages/torch";

std::vector<std::string> Qualnames(const std::vector<const FunctionInfo*>& functions) {
  std::vector<std::string> names;
  for (const FunctionInfo* function : functions) names.push_back(function->module + ":" + function->qualname);
  return names;
}

TEST(TorchIndexTest, IndexesTheTorchPackageAndResolvesKnownCalls) {
  if (!std::filesystem::exists(std::string(kTorch) + "/__init__.py")) {
    GTEST_SKIP() << kTorch << " is not installed (apt-get install python3-torch)";
  }
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<RepoIndex> index = RepoIndex::Build(kTorch);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(index.ok()) << index.status();
  std::printf("torch index: %zu modules, %zu functions, %zu classes, %zu skipped in %.2f s\n",
              index->module_count(), index->functions().size(), index->classes().size(),
              index->skipped().size(), seconds);
  EXPECT_GT(index->module_count(), 1000u);
  EXPECT_GT(index->functions().size(), 10000u);

  const ClassInfo* linear = index->FindClass("torch.nn.modules.linear", "Linear");
  ASSERT_NE(linear, nullptr);
  EXPECT_THAT(linear->bases, ::testing::ElementsAre("Module"));
  // Module.to is inherited from torch/nn/modules/module.py.
  std::vector<const FunctionInfo*> to = index->FindMethod(*linear, "to");
  ASSERT_FALSE(to.empty());
  EXPECT_EQ(to[0]->module, "torch.nn.modules.module");

  // Calls in a document written against the package, as a repo file inside it would be.
  Document document = testing::Parse(R"py(
import torch.distributed as dist
from torch.nn import Linear
from torch.nn.parallel import DistributedDataParallel as DDP
from .distributed.distributed_c10d import all_gather_into_tensor


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = Linear(4, 4, bias=False)

    def forward(self, x):
        dist.all_reduce(x, op=dist.ReduceOp.SUM)
        all_gather_into_tensor(x, x)
        return DDP(self.layer)
)py",
                                     "smallfix_probe.py");
  auto resolve = [&](std::string_view prefix) {
    return Qualnames(index->ResolveCall(document, testing::Find(document, "call", prefix)));
  };
  EXPECT_THAT(resolve("dist.all_reduce("),
              ::testing::ElementsAre("torch.distributed.distributed_c10d:all_reduce"));
  EXPECT_THAT(resolve("Linear("), ::testing::ElementsAre("torch.nn.modules.linear:Linear.__init__"));
  EXPECT_THAT(resolve("DDP("),
              ::testing::ElementsAre("torch.nn.parallel.distributed:DistributedDataParallel.__init__"));
  EXPECT_THAT(resolve("all_gather_into_tensor("),
              ::testing::ElementsAre("torch.distributed.distributed_c10d:all_gather_into_tensor"));
  const std::vector<const FunctionInfo*> all_reduce =
      index->ResolveCall(document, testing::Find(document, "call", "dist.all_reduce("));
  ASSERT_FALSE(all_reduce.empty());
  std::vector<std::string> params;
  for (const ParamInfo& param : all_reduce[0]->CallableParams()) params.push_back(param.name);
  EXPECT_THAT(params, ::testing::ElementsAre("tensor", "op", "group", "async_op"));
}

}  // namespace
}  // namespace smallfix
