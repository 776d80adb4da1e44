#include "engine/index/imports.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

using testing::Parse;

std::string Describe(const ImportBinding& binding) {
  return binding.local_name + " -> " + binding.module + (binding.name.empty() ? "" : ":") +
         binding.name + (binding.top_level ? "" : " (local)");
}

TEST(ImportsTest, BindsNamesAsPythonDoes) {
  Document document = Parse(R"py(from ..comm import all_reduce as ar, broadcast
from . import mod
from .. import *
import a.b.c as m, d.e
from torch.distributed import (
    all_gather,  # comment
    barrier as b,
)
try:
    from torch._six import inf
except ImportError:
    from math import inf

def f():
    import numpy as np
)py",
                            "pkg/zero/reduce.py");
  std::vector<std::string> described;
  for (const ImportBinding& binding : ImportsOf(document, "pkg.zero.reduce", false)) {
    described.push_back(Describe(binding));
  }
  EXPECT_THAT(described, ::testing::ElementsAre(
                             "ar -> pkg.comm:all_reduce", "broadcast -> pkg.comm:broadcast",
                             "mod -> pkg.zero:mod", "* -> pkg:*", "m -> a.b.c", "d -> d",
                             "all_gather -> torch.distributed:all_gather",
                             "b -> torch.distributed:barrier", "inf -> torch._six:inf",
                             "inf -> math:inf", "np -> numpy (local)"));
}

TEST(ImportsTest, RelativeImportInPackageInit) {
  Document document = Parse("from .engine import Engine\n", "pkg/__init__.py");
  std::vector<ImportBinding> imports = ImportsOf(document, "pkg", true);
  ASSERT_EQ(imports.size(), 1u);
  EXPECT_EQ(Describe(imports[0]), "Engine -> pkg.engine:Engine");
  EXPECT_EQ(imports[0].line, 1);
}

}  // namespace
}  // namespace smallfix
