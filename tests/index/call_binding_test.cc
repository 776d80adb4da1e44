#include "engine/index/call_binding.h"

#include "engine/index/repo_index.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::Find;
using testing::Parse;
using Via = CallTarget::Via;

// Binds the call starting with `call_prefix` to the parameters of the def the index finds for it.
CallBinding Bind(const RepoIndex& index, const Document& document, std::string_view call_prefix) {
  const TSNode call = Find(document, "call", call_prefix);
  const std::vector<const FunctionInfo*> callees = index.ResolveCall(document, call);
  EXPECT_FALSE(callees.empty()) << call_prefix;
  return callees.empty() ? CallBinding{} : BindCall(document, call, callees.front()->CallableParams());
}

std::string Text(const Document& document, const std::vector<TSNode>& nodes) {
  std::string out;
  for (TSNode node : nodes) out += std::string(document.NodeText(node)) + ";";
  return out;
}

TEST(CallBindingTest, KeywordsPositionalsAndWhatTheyFill) {
  std::vector<Document> documents = {Parse(R"py(
def shard(model, mesh, *, enable_cp=False, **options):
    return model


def plain(a, b, /, c=1):
    return a


def run(model, mesh, xs, kw):
    shard(model, mesh, cp_enabled=True)
    plain(1, 2, 3, 4)
    plain(1, b=2)
    plain(1, 2, a=3)
    plain(*xs, **kw)
)py",
                                           "m.py")};
  const Document& m = documents[0];
  RepoIndex index = RepoIndex::FromDocuments(documents);

  const CallBinding shard = Bind(index, m, "shard(model");
  EXPECT_THAT(shard.filled, ElementsAre("model", "mesh"));
  EXPECT_THAT(shard.keywords, ElementsAre("cp_enabled"));
  EXPECT_THAT(shard.unknown_keywords, IsEmpty());  // **options takes it
  EXPECT_TRUE(shard.takes_var_keyword);

  const CallBinding four = Bind(index, m, "plain(1, 2, 3, 4)");
  EXPECT_THAT(four.filled, ElementsAre("a", "b", "c"));
  EXPECT_EQ(Text(m, four.excess_positionals), "4;");

  // b is positional-only: by keyword it is no parameter's.
  const CallBinding by_keyword = Bind(index, m, "plain(1, b=2)");
  EXPECT_THAT(by_keyword.unknown_keywords, ElementsAre("b"));
  EXPECT_FALSE(by_keyword.Fills("b"));

  const CallBinding twice = Bind(index, m, "plain(1, 2, a=3)");
  EXPECT_THAT(twice.unknown_keywords, ElementsAre("a"));  // a is positional-only too

  const CallBinding splats = Bind(index, m, "plain(*xs");
  EXPECT_TRUE(splats.has_list_splat);
  EXPECT_TRUE(splats.has_dict_splat);
  EXPECT_THAT(splats.positionals, IsEmpty());
}

TEST(CallBindingTest, RepeatedParameter) {
  std::vector<Document> documents = {Parse("def f(x, y=0):\n    return x\n\nf(1, x=2)\n", "m.py")};
  RepoIndex index = RepoIndex::FromDocuments(documents);
  const CallBinding binding = Bind(index, documents[0], "f(1");
  EXPECT_THAT(binding.repeated, ElementsAre("x"));
  EXPECT_THAT(binding.filled, ElementsAre("x"));
}

TEST(CallTargetTest, SaysHowTheCallReachesItsDefAndWhetherItIsSure) {
  std::vector<Document> documents = {
      Parse(R"py(
import dataclasses
from ext import Base


class Loop:
    def __init__(self, n):
        self.n = n

    def run(self):
        return self.step(1)

    def __call__(self, x):
        return self(x)

    def step(self, k):
        return k

    @classmethod
    def make(cls):
        return cls.build(2)

    @classmethod
    def build(cls, n):
        return cls(n)


class TrainLoop(Loop):
    def step(self, k, accumulate=False):
        return super().step(k)


@dataclasses.dataclass
class Config(Loop):
    lr: float = 0.1


class Mixed(Base, Loop):
    pass


class Unknown:
    def only_here(self):
        return 0


def step(k):
    return k


def local_import():
    from other import step
    return step(1)


def twice(flag):
    class Twice:
        def __init__(self):
            pass

    class Twice(Loop):
        pass

    return Twice(1)


def use(obj):
    Loop(1)
    Loop.step(Loop(2), 3)
    Config(lr=1.0)
    Mixed(3)
    obj.only_here()
)py",
            "m.py")};
  const Document& m = documents[0];
  RepoIndex index = RepoIndex::FromDocuments(documents);
  auto target = [&](std::string_view prefix) { return index.ResolveCallTarget(m, Find(m, "call", prefix)); };

  EXPECT_EQ(target("Loop(1)").via, Via::kConstructor);
  EXPECT_TRUE(target("Loop(1)").certain);
  EXPECT_EQ(target("self.step(").via, Via::kBoundMethod);
  EXPECT_TRUE(target("self.step(").certain);
  EXPECT_EQ(target("super().step(").via, Via::kSuper);
  EXPECT_EQ(target("Loop.step(").via, Via::kClassAttribute);
  EXPECT_TRUE(target("Loop.step(").certain);
  EXPECT_EQ(target("cls.build(").via, Via::kClassAttribute);  // cls in a classmethod
  EXPECT_EQ(target("cls(n)").via, Via::kConstructor);
  // A dataclass writes its own __init__; a base outside the repo may have one first.
  EXPECT_EQ(target("Config(").via, Via::kConstructor);
  EXPECT_FALSE(target("Config(").certain);
  EXPECT_FALSE(target("Mixed(").certain);
  EXPECT_FALSE(target("Twice(1)").certain);
  // self(...) is __call__, not the constructor; an import in the def shadows the module's def.
  EXPECT_TRUE(target("self(x)").functions.empty());
  EXPECT_TRUE(target("step(1)").functions.empty());
  EXPECT_EQ(target("obj.only_here(").via, Via::kGuess);
  EXPECT_FALSE(target("obj.only_here(").certain);

  // The base's step may be TrainLoop's at run time.
  std::vector<std::string> overrides;
  for (const FunctionInfo* f : index.Overrides(*target("self.step(").functions.front())) {
    overrides.push_back(f->qualname);
  }
  EXPECT_THAT(overrides, ElementsAre("TrainLoop.step"));
}

}  // namespace
}  // namespace smallfix
