#include "engine/index/undefined_names.h"

#include "engine/index/known_imports.h"
#include "engine/index/repo_index.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::Parse;

std::vector<std::string> Names(const std::string& code) {
  std::optional<std::vector<UndefinedName>> found = UndefinedNames(Parse(code));
  EXPECT_TRUE(found.has_value());
  std::vector<std::string> names;
  if (found) {
    for (const UndefinedName& name : *found) names.push_back(name.name);
  }
  return names;
}

TEST(UndefinedNamesTest, ReportsReadsNothingBinds) {
  EXPECT_THAT(Names(R"py(import os

def save(state, path: Optional[str] = None) -> torch.Tensor:
    shutil.move(path, os.path.join(path, "x"))
    return np.zeros(1)
)py"),
              ElementsAre("Optional", "torch", "shutil", "np"));
}

TEST(UndefinedNamesTest, EveryKindOfBindingCounts) {
  EXPECT_THAT(Names(R"py(from a import b as c
import d.e

class K(c):
    attr = 1

    def m(self, x, *args, y=2, z: int = 3, **kw):
        global G
        G = lambda q, *r: q
        for i, (j, *k) in enumerate(args):
            pass
        with open(x) as fh, open(y) as (g, h):
            pass
        try:
            pass
        except ValueError as err:
            print(err)
        if (n := len(kw)) > 0:
            pass
        squares = [w * w for w in range(n)]
        match x:
            case {"k": value, **rest}:
                print(value, rest)
            case Point(x=px):
                print(px)
        del squares
        return self.attr, d.e, K, attr_later, i, j, k, fh, g, h, z, __file__, __class__


attr_later = 1
)py"),
              IsEmpty());  // Point in a case pattern is not checked: patterns count as bindings
}

TEST(UndefinedNamesTest, AttributesKeywordsAndAnnotationsAreNotNames) {
  EXPECT_THAT(Names(R"py(import torch

def f(x: torch.Tensor, y: "Later") -> Dict[str, int]:
    return x.shape, dict(key=1)
)py"),
              ElementsAre("Dict"));
}

TEST(UndefinedNamesTest, NamesAFirstReadAndTheAttributesReadOnIt) {
  std::optional<std::vector<UndefinedName>> found = UndefinedNames(Parse(R"py(
A = importlib.metadata.version("x")
B = importlib.util.find_spec("y")
C = importlib.util.find_spec("z")
)py"));
  ASSERT_TRUE(found.has_value());
  ASSERT_EQ(found->size(), 1u);
  EXPECT_EQ(found->front().name, "importlib");
  EXPECT_EQ(found->front().line, 2);
  EXPECT_EQ(found->front().reads.size(), 3u);
  EXPECT_THAT(found->front().attributes, ElementsAre("metadata", "util"));
}

TEST(UndefinedNamesTest, ProbesForANameErrorAreNotReported) {
  EXPECT_THAT(Names(R"py(try:
    text_type = unicode
except NameError:
    text_type = str
)py"),
              IsEmpty());
}

TEST(UndefinedNamesTest, GivesUpWhereNamesMayComeFromOutOfSight) {
  EXPECT_FALSE(UndefinedNames(Parse("from torch import *\nx = Tensor\n")).has_value());
  EXPECT_FALSE(UndefinedNames(Parse("globals()['X'] = 1\nprint(X)\n")).has_value());
  EXPECT_FALSE(UndefinedNames(Parse("exec('Y = 1')\nprint(Y)\n")).has_value());
  EXPECT_FALSE(UndefinedNames(Parse("def f(:\n    return q\n")).has_value());
}

TEST(KnownImportsTest, StandardLibraryFacts) {
  EXPECT_TRUE(IsStdlibModule("os"));
  EXPECT_TRUE(IsStdlibModule("importlib"));
  EXPECT_FALSE(IsStdlibModule("torch"));
  EXPECT_EQ(StdlibModuleOf("Optional"), "typing");
  EXPECT_EQ(StdlibModuleOf("dataclass"), "dataclasses");
  EXPECT_EQ(StdlibModuleOf("OrderedDict"), "collections");
  EXPECT_EQ(StdlibModuleOf("weight"), "");
  EXPECT_THAT(UnloadedSubmodules("importlib"), ::testing::Contains("util"));
  EXPECT_THAT(UnloadedSubmodules("os"), IsEmpty());
  EXPECT_EQ(ConventionalImport("np"), "import numpy as np");
}

TEST(RepoIndexDefinersTest, TopLevelDefinitionsSubmodulesAndBindings) {
  std::vector<Document> documents = {
      Parse("", "src/pkg/__init__.py"),
      Parse("from .dist import barrier\nLIMIT = 3\nA, B = 1, 2\n\ndef helper():\n    pass\n",
            "src/pkg/utils/__init__.py"),
      Parse("def barrier():\n    pass\n\nclass Group:\n    def helper(self):\n        pass\n",
            "src/pkg/utils/dist.py"),
      Parse("from x import *\n", "src/pkg/star.py"),
  };
  RepoIndex index = RepoIndex::FromDocuments(documents);
  auto modules = [&](std::string_view name) {
    std::vector<std::string> out;
    for (const RepoIndex::Definer& definer : index.ModulesDefining(name)) {
      out.push_back(definer.module + (definer.is_submodule ? " (package)" : ""));
    }
    return out;
  };
  EXPECT_THAT(modules("barrier"), ElementsAre("src.pkg.utils.dist"));
  EXPECT_THAT(modules("LIMIT"), ElementsAre("src.pkg.utils"));
  EXPECT_THAT(modules("B"), ElementsAre("src.pkg.utils"));
  EXPECT_THAT(modules("helper"), ElementsAre("src.pkg.utils"));  // not the method
  EXPECT_THAT(modules("dist"), ElementsAre("src.pkg.utils (package)"));
  EXPECT_EQ(index.ModuleBinds("src.pkg.utils", "barrier"), true);   // imported there
  EXPECT_EQ(index.ModuleBinds("src.pkg.utils", "dist"), true);      // a submodule
  EXPECT_EQ(index.ModuleBinds("src.pkg.utils.dist", "LIMIT"), false);
  EXPECT_EQ(index.ModuleBinds("src.pkg.star", "anything"), std::nullopt);
  EXPECT_EQ(index.ModuleBinds("numpy", "zeros"), std::nullopt);
  EXPECT_EQ(index.ImportableName("src.pkg.utils.dist"), "pkg.utils.dist");
}

TEST(RepoIndexDefinersTest, ClassAttributesFollowRepoBasesOnly) {
  std::vector<Document> documents = {Parse(R"py(import torch.nn as nn
from transformers import PreTrainedModel


class Base(nn.Module):
    scale = 2

    def __init__(self):
        self.width = 1


class Child(Base):
    def step(self):
        self.count += 1


class Hosted(PreTrainedModel):
    pass


class Dynamic:
    def __getattr__(self, name):
        return 0
)py",
                                             "pkg/model.py")};
  RepoIndex index = RepoIndex::FromDocuments(documents);
  const ClassInfo* child = index.FindClass("pkg.model", "Child");
  ASSERT_NE(child, nullptr);
  std::optional<std::vector<std::string>> attributes = index.ClassAttributes(*child);
  ASSERT_TRUE(attributes.has_value());
  EXPECT_THAT(*attributes, ::testing::UnorderedElementsAre("step", "count", "scale", "__init__", "width"));
  EXPECT_FALSE(index.ClassAttributes(*index.FindClass("pkg.model", "Hosted")).has_value());
  EXPECT_FALSE(index.ClassAttributes(*index.FindClass("pkg.model", "Dynamic")).has_value());
  EXPECT_TRUE(index.AssignsAttribute("count"));
  EXPECT_FALSE(index.AssignsAttribute("scale"));
}

}  // namespace
}  // namespace smallfix
