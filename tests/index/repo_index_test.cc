#include "engine/index/repo_index.h"

#include <algorithm>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/index/test_paths.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::Find;
using testing::Parse;
using Kind = Parameter::Kind;

std::vector<std::string> Qualnames(const std::vector<const FunctionInfo*>& functions) {
  std::vector<std::string> names;
  for (const FunctionInfo* function : functions) {
    names.push_back(function->module + ":" + function->qualname);
  }
  return names;
}

std::vector<std::string> ParamNames(const std::vector<ParamInfo>& params) {
  std::vector<std::string> names;
  for (const ParamInfo& param : params) names.push_back(param.name);
  return names;
}

const FunctionInfo* Function(const RepoIndex& index, std::string_view qualname) {
  for (const FunctionInfo& function : index.functions()) {
    if (function.qualname == qualname) return &function;
  }
  return nullptr;
}

class MiniRepoTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    absl::StatusOr<RepoIndex> built = RepoIndex::Build(testing::MiniRepo());
    ASSERT_TRUE(built.ok()) << built.status();
    index_ = new RepoIndex(*std::move(built));
  }
  static void TearDownTestSuite() { delete index_; }

  // The callees of the first call in `path` whose text starts with `prefix`.
  static std::vector<std::string> Resolve(const std::string& path, std::string_view prefix) {
    absl::StatusOr<Document> document = Document::Load(testing::MiniRepo() + "/" + path);
    EXPECT_TRUE(document.ok()) << document.status();
    // ResolveCall wants the repo-relative path.
    Document relative = Parse(std::string(document->text()), path);
    TSNode call = Find(relative, "call", prefix);
    EXPECT_FALSE(ts_node_is_null(call)) << prefix;
    return Qualnames(index_->ResolveCall(relative, call));
  }

  static inline RepoIndex* index_ = nullptr;
};

TEST_F(MiniRepoTest, IndexesFilesSkipsBrokenOnesAndBuildDirectories) {
  EXPECT_EQ(index_->module_count(), 7u);  // pkg, its base, comm, engine, zero, zero.reduce; train
  EXPECT_THAT(index_->skipped(), ElementsAre("pkg/latin1.py"));
  EXPECT_THAT(index_->skip_reasons()[0], ::testing::HasSubstr("UTF-8"));
  EXPECT_THAT(index_->FunctionsNamed("built"), IsEmpty());  // build/generated.py
}

TEST_F(MiniRepoTest, RecordsSignaturesWithKindsAndDefaults) {
  const FunctionInfo* init = Function(*index_, "Reducer.__init__");
  ASSERT_NE(init, nullptr);
  EXPECT_EQ(init->module, "pkg.zero.reduce");
  EXPECT_EQ(init->file, "pkg/zero/reduce.py");
  EXPECT_EQ(init->line, 10);
  EXPECT_TRUE(init->is_method);
  EXPECT_EQ(init->class_name, "Reducer");
  ASSERT_EQ(init->params.size(), 5u);
  EXPECT_EQ(init->params[2].default_text, "25_000_000");
  EXPECT_EQ(init->params[3].kind, Kind::kVarPositional);
  EXPECT_EQ(init->params[4].kind, Kind::kVarKeyword);
  EXPECT_THAT(ParamNames(init->CallableParams()), ElementsAre("model", "bucket_size", "args", "kwargs"));

  const FunctionInfo* flush = Function(*index_, "Reducer.flush");
  ASSERT_NE(flush, nullptr);
  ASSERT_EQ(flush->params.size(), 3u);  // the `/` and `*` markers are not parameters
  EXPECT_EQ(flush->params[0].kind, Kind::kPositionalOnly);
  EXPECT_EQ(flush->params[1].kind, Kind::kPositionalOnly);
  EXPECT_EQ(flush->params[2].kind, Kind::kKeywordOnly);
  EXPECT_EQ(flush->params[2].default_text, "True");

  const FunctionInfo* wait = Function(*index_, "Reducer.wait");
  ASSERT_NE(wait, nullptr);
  EXPECT_TRUE(wait->is_async);
  EXPECT_EQ(wait->params[1].default_text, "1.0");

  const FunctionInfo* reduce = Function(*index_, "Reducer.reduce");
  ASSERT_NE(reduce, nullptr);
  EXPECT_THAT(reduce->decorators, ElementsAre("torch.no_grad()"));
  EXPECT_NE(Function(*index_, "Reducer.reduce.<locals>.inner"), nullptr);

  const FunctionInfo* make_group = Function(*index_, "BaseEngine.make_group");
  ASSERT_NE(make_group, nullptr);
  EXPECT_TRUE(make_group->is_staticmethod);
  EXPECT_THAT(ParamNames(make_group->CallableParams()), ElementsAre("ranks", "backend"));
  const FunctionInfo* from_config = Function(*index_, "BaseEngine.from_config");
  ASSERT_NE(from_config, nullptr);
  EXPECT_TRUE(from_config->is_classmethod);
  EXPECT_THAT(ParamNames(from_config->CallableParams()), ElementsAre("path"));
  EXPECT_TRUE(Function(*index_, "BaseEngine.world_size")->is_property);

  const ClassInfo* reducer = index_->FindClass("pkg.zero.reduce", "Reducer");
  ASSERT_NE(reducer, nullptr);
  EXPECT_THAT(reducer->bases, ElementsAre("BaseEngine"));
  EXPECT_EQ(reducer->line, 9);
}

TEST_F(MiniRepoTest, ResolvesImportedNamesAndModules) {
  // from ..comm import all_reduce as ar
  EXPECT_THAT(Resolve("pkg/zero/reduce.py", "ar("), ElementsAre("pkg.comm:all_reduce"));
  // from .. import comm
  EXPECT_THAT(Resolve("pkg/zero/reduce.py", "comm.broadcast("), ElementsAre("pkg.comm:broadcast"));
  // import pkg.comm as c
  EXPECT_THAT(Resolve("pkg/zero/reduce.py", "c.all_reduce("), ElementsAre("pkg.comm:all_reduce"));
  // from . import comm as dist: the repo's module, not torch.distributed
  EXPECT_THAT(Resolve("pkg/engine.py", "dist.all_reduce("), ElementsAre("pkg.comm:all_reduce"));
  // torch.distributed is not in the repo: no guess.
  EXPECT_THAT(Resolve("pkg/comm.py", "dist.all_reduce("), IsEmpty());
  // Through the re-export in pkg/__init__.py.
  EXPECT_THAT(Resolve("train.py", "initialize("), ElementsAre("pkg.engine:initialize"));
}

TEST_F(MiniRepoTest, ResolvesMethodsThroughInheritanceAcrossModules) {
  // self.step() is defined in BaseEngine, in pkg/base.py.
  EXPECT_THAT(Resolve("pkg/zero/reduce.py", "self.step("), ElementsAre("pkg.base:BaseEngine.step"));
  EXPECT_THAT(Resolve("pkg/zero/reduce.py", "self.flush("), ElementsAre("pkg.zero.reduce:Reducer.flush"));
  EXPECT_THAT(Resolve("pkg/zero/reduce.py", "super().__init__("),
              ElementsAre("pkg.base:BaseEngine.__init__"));
  EXPECT_THAT(Resolve("pkg/zero/reduce.py", "inner("),
              ElementsAre("pkg.zero.reduce:Reducer.reduce.<locals>.inner"));
  EXPECT_THAT(Resolve("pkg/base.py", "cls("), ElementsAre("pkg.base:BaseEngine.__init__"));
  EXPECT_THAT(Resolve("pkg/engine.py", "Reducer.from_config("),
              ElementsAre("pkg.base:BaseEngine.from_config"));
  // An attribute of unknown type: the only method named `reduce` in the repo.
  EXPECT_THAT(Resolve("pkg/engine.py", "self.reducer.reduce("),
              ElementsAre("pkg.zero.reduce:Reducer.reduce"));
  // A builtin is not in the repo.
  EXPECT_THAT(Resolve("pkg/zero/reduce.py", "print("), IsEmpty());
}

TEST_F(MiniRepoTest, ResolvesConstructorsToInit) {
  std::vector<std::string> engine = Resolve("pkg/engine.py", "Engine(model");
  EXPECT_THAT(engine, ElementsAre("pkg.engine:Engine.__init__"));
  const FunctionInfo* init = Function(*index_, "Engine.__init__");
  EXPECT_THAT(ParamNames(init->CallableParams()), ElementsAre("model", "cfg", "reducer"));
  // Reducer(model): its own __init__; pkg.Engine(...) through the package's re-export.
  EXPECT_THAT(Resolve("pkg/engine.py", "Reducer(model)"),
              ElementsAre("pkg.zero.reduce:Reducer.__init__"));
  EXPECT_THAT(Resolve("train.py", "pkg.Engine("), ElementsAre("pkg.engine:Engine.__init__"));
}

TEST(RepoIndexTest, BuildFailsOnAMissingRoot) {
  absl::StatusOr<RepoIndex> index = RepoIndex::Build("/nonexistent/smallfix/repo");
  EXPECT_EQ(index.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(index.status().message(), ::testing::HasSubstr("/nonexistent/smallfix/repo"));
}

TEST(RepoIndexTest, FromDocumentsResolvesInheritedInitAndNestedClasses) {
  std::vector<Document> documents = {
      Parse(R"py(
class Module:
    def __init__(self, *, device=None, dtype=None):
        self.device = device

    def to(self, device, non_blocking=False):
        return self
)py",
            "lib/nn.py"),
      Parse(R"py(
from lib import nn
from lib.nn import Module as M


class Linear(nn.Module):
    def forward(self, x):
        return self.to(x.device)


class Wrapped(M):
    def __init__(self, inner, *args, **kwargs):
        super(Wrapped, self).__init__(**kwargs)
        self.inner = inner

    class Config:
        def __init__(self, name="default"):
            self.name = name


def build():
    layer = Linear(device="cpu")
    config = Wrapped.Config("x")
    return Wrapped(layer, dtype=None), config
)py",
            "lib/layers.py"),
  };
  RepoIndex index = RepoIndex::FromDocuments(documents);
  const Document& layers = documents[1];
  EXPECT_THAT(Qualnames(index.ResolveCall(layers, Find(layers, "call", "Linear("))),
              ElementsAre("lib.nn:Module.__init__"));
  EXPECT_THAT(Qualnames(index.ResolveCall(layers, Find(layers, "call", "self.to("))),
              ElementsAre("lib.nn:Module.to"));
  EXPECT_THAT(Qualnames(index.ResolveCall(layers, Find(layers, "call", "super(Wrapped"))),
              ElementsAre("lib.nn:Module.__init__"));
  EXPECT_THAT(Qualnames(index.ResolveCall(layers, Find(layers, "call", "Wrapped.Config("))),
              ElementsAre("lib.layers:Wrapped.Config.__init__"));
  EXPECT_THAT(Qualnames(index.ResolveCall(layers, Find(layers, "call", "Wrapped(layer"))),
              ElementsAre("lib.layers:Wrapped.__init__"));
  const FunctionInfo* init = index.ResolveCall(layers, Find(layers, "call", "Linear("))[0];
  ASSERT_EQ(init->CallableParams().size(), 2u);
  EXPECT_EQ(init->CallableParams()[0].kind, Parameter::Kind::kKeywordOnly);
  EXPECT_EQ(init->CallableParams()[0].default_text, "None");
}

TEST(RepoIndexTest, OverloadsAndConditionalDefsPutTheBoundDefFirst) {
  std::vector<Document> documents = {Parse(R"py(
from typing import overload
import sys

@overload
def load(path: str) -> bytes: ...

def load(path, mmap=False):
    return path

if sys.version_info >= (3, 8):
    def cache(fn, maxsize=None):
        return fn
else:
    def cache(fn):
        return fn

load("x")
cache(load)
)py",
                                             "util.py")};
  RepoIndex index = RepoIndex::FromDocuments(documents);
  std::vector<const FunctionInfo*> load = index.ResolveCall(documents[0], Find(documents[0], "call", "load("));
  ASSERT_EQ(load.size(), 2u);
  EXPECT_EQ(load[0]->line, 8);  // the implementation, not the @overload stub
  std::vector<const FunctionInfo*> cache =
      index.ResolveCall(documents[0], Find(documents[0], "call", "cache("));
  ASSERT_EQ(cache.size(), 2u);
}

TEST(RepoIndexTest, UnknownObjectsResolveOnlyWhenFewMethodsShareTheName) {
  std::string many;
  for (int i = 0; i < 6; ++i) {
    many += "class C" + std::to_string(i) + ":\n    def step(self):\n        pass\n";
  }
  many += "class Only:\n    def unique_step(self, n):\n        pass\n";
  many += "def run(x):\n    x.step()\n    x.unique_step(1)\n";
  std::vector<Document> documents = {Parse(many, "m.py")};
  RepoIndex index = RepoIndex::FromDocuments(documents);
  EXPECT_THAT(index.ResolveCall(documents[0], Find(documents[0], "call", "x.step(")), IsEmpty());
  EXPECT_THAT(Qualnames(index.ResolveCall(documents[0], Find(documents[0], "call", "x.unique_step("))),
              ElementsAre("m:Only.unique_step"));
  EXPECT_EQ(index.FunctionsNamed("step").size(), 6u);
}

// A def inside a for (or with, while, try) body inside a method: the loop's body is a block
// with no name, which once crashed the qualname walk (found by the realfix runner).
TEST(RepoIndexTest, ResolvesCallsInADefNestedInALoopBody) {
  std::vector<Document> documents = {
      Parse(R"py(
class Strategy:
    def prepare(self, modules):
        for module in modules:
            def check(m):
                return helper(m)
            check(module)


def helper(m):
    return m
)py",
            "lib/strategy.py"),
  };
  RepoIndex index = RepoIndex::FromDocuments(documents);
  const Document& strategy = documents[0];
  EXPECT_THAT(Qualnames(index.ResolveCall(strategy, Find(strategy, "call", "helper("))),
              ElementsAre("lib.strategy:helper"));
  EXPECT_THAT(Qualnames(index.ResolveCall(strategy, Find(strategy, "call", "check("))),
              ElementsAre("lib.strategy:Strategy.prepare.<locals>.check"));
}

}  // namespace
}  // namespace smallfix
