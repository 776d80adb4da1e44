#include "engine/index/scope.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

using ::testing::Contains;
using ::testing::Not;
using testing::Parse;
using Kind = ScopeName::Kind;

constexpr char kSource[] = R"py(import torch
from .comm import all_reduce as ar

WORLD = 8


class Reducer(Base):
    scale = 1.0

    def __init__(self, model, *args, bucket=25, **kwargs):
        self.model = model
        self.buckets, self.count = [], 0

    @torch.no_grad()
    def reduce(self, grads, op="sum"):
        # @before-total
        total = 0
        # @after-total
        for i, g in enumerate(grads):
            # @in-loop
            total += g
        try:
            ar(total)
        except RuntimeError as err:
            # @in-except
            print(err)
        # @after-except
        squares = [x * x for x in grads if x]  # @in-comp x * x
        if (n := len(grads)) > 0:
            pass

        def inner(y):
            # @in-closure
            return y + total

        with open("f") as fh:
            # @in-with
            self.log = fh
        return inner(squares)

    @staticmethod
    def helper(a, b=WORLD):
        # @in-static
        return a


def later():
    pass
)py";

// The byte at the marker comment `# @name` (or at `text` after it on the same line).
size_t At(const Document& document, std::string_view marker, std::string_view text = "") {
  const size_t at = document.text().find(std::string("# @") + std::string(marker));
  EXPECT_NE(at, std::string_view::npos) << marker;
  if (text.empty()) return at;
  const size_t found = document.text().rfind(text, at);
  EXPECT_NE(found, std::string_view::npos) << text;
  return found;
}

std::vector<std::string> Names(const Document& document, size_t byte) {
  std::vector<std::string> names;
  for (const ScopeName& name : NamesInScope(document, byte)) names.push_back(name.name);
  return names;
}

const ScopeName* Lookup(const std::vector<ScopeName>& names, std::string_view name) {
  for (const ScopeName& scope_name : names) {
    if (scope_name.name == name) return &scope_name;
  }
  return nullptr;
}

TEST(ScopeTest, ParametersLocalsAndModuleNamesWithKinds) {
  Document document = Parse(kSource, "pkg/zero/reduce.py");
  const std::vector<ScopeName> names = NamesInScope(document, At(document, "in-loop"));
  struct Expected {
    std::string_view name;
    Kind kind;
    int line;
  };
  for (const Expected& expected : std::initializer_list<Expected>{
           {"self", Kind::kParameter, 15},
           {"grads", Kind::kParameter, 15},
           {"op", Kind::kParameter, 15},
           {"total", Kind::kLocal, 17},
           {"i", Kind::kLoopVariable, 19},
           {"g", Kind::kLoopVariable, 19},
           {"torch", Kind::kImport, 1},
           {"ar", Kind::kImport, 2},
           {"WORLD", Kind::kGlobal, 4},
           {"Reducer", Kind::kGlobal, 7},
           {"later", Kind::kGlobal, 47},  // module names are usable from anywhere in a def
           {"self.model", Kind::kAttribute, 11},
           {"self.buckets", Kind::kAttribute, 12},
           {"self.count", Kind::kAttribute, 12},
           {"self.log", Kind::kAttribute, 38},
           {"self.scale", Kind::kAttribute, 8},
           {"len", Kind::kBuiltin, 0},
       }) {
    const ScopeName* found = Lookup(names, expected.name);
    ASSERT_NE(found, nullptr) << expected.name;
    EXPECT_EQ(found->kind, expected.kind) << expected.name;
    EXPECT_EQ(found->line, expected.line) << expected.name;
  }
  // Parameters of the enclosing def come first, the nearest scope before the module.
  EXPECT_EQ(names[0].name, "self");
  // Class-body names are reached through self, not bare; other methods' parameters not at all.
  EXPECT_THAT(Names(document, At(document, "in-loop")), Not(Contains("scale")));
  EXPECT_THAT(Names(document, At(document, "in-loop")), Not(Contains("model")));
}

TEST(ScopeTest, AssignmentsBindAfterTheirStatement) {
  Document document = Parse(kSource, "pkg/zero/reduce.py");
  EXPECT_FALSE(IsNameInScope(document, At(document, "before-total"), "total"));
  EXPECT_TRUE(IsNameInScope(document, At(document, "after-total"), "total"));
  EXPECT_FALSE(IsNameInScope(document, At(document, "before-total"), "squares"));
  EXPECT_FALSE(IsNameInScope(document, At(document, "before-total"), "n"));
  EXPECT_TRUE(IsNameInScope(document, At(document, "in-closure"), "n"));  // walrus
  EXPECT_FALSE(IsNameInScope(document, At(document, "before-total"), "inner"));
  EXPECT_TRUE(IsNameInScope(document, At(document, "in-with"), "inner"));
  EXPECT_TRUE(IsNameInScope(document, At(document, "in-with"), "fh"));
  EXPECT_FALSE(IsNameInScope(document, At(document, "in-closure"), "fh"));
}

TEST(ScopeTest, ExceptNameOnlyInsideItsHandler) {
  Document document = Parse(kSource, "pkg/zero/reduce.py");
  EXPECT_TRUE(IsNameInScope(document, At(document, "in-except"), "err"));
  EXPECT_FALSE(IsNameInScope(document, At(document, "after-except"), "err"));
}

TEST(ScopeTest, ComprehensionVariablesDoNotLeak) {
  Document document = Parse(kSource, "pkg/zero/reduce.py");
  const size_t in_comprehension = At(document, "in-comp", "x * x for");
  const std::vector<ScopeName> names = NamesInScope(document, in_comprehension);
  ASSERT_NE(Lookup(names, "x"), nullptr);
  EXPECT_EQ(Lookup(names, "x")->kind, Kind::kLoopVariable);
  EXPECT_FALSE(IsNameInScope(document, At(document, "in-closure"), "x"));
  EXPECT_FALSE(IsNameInScope(document, At(document, "after-except"), "x"));
}

TEST(ScopeTest, ClosuresSeeTheEnclosingDefs) {
  Document document = Parse(kSource, "pkg/zero/reduce.py");
  const std::vector<ScopeName> names = NamesInScope(document, At(document, "in-closure"));
  ASSERT_NE(Lookup(names, "y"), nullptr);
  EXPECT_EQ(Lookup(names, "y")->kind, Kind::kParameter);
  EXPECT_EQ(Lookup(names, "total")->kind, Kind::kLocal);
  EXPECT_EQ(Lookup(names, "grads")->kind, Kind::kParameter);
  EXPECT_NE(Lookup(names, "self.model"), nullptr);  // self is a closure variable
  EXPECT_EQ(names[0].name, "y");                    // the innermost def first
}

TEST(ScopeTest, StaticMethodsHaveNoSelfAttributes) {
  Document document = Parse(kSource, "pkg/zero/reduce.py");
  const std::vector<std::string> names = Names(document, At(document, "in-static"));
  EXPECT_THAT(names, Contains("a"));
  EXPECT_THAT(names, Contains("WORLD"));
  EXPECT_THAT(names, Not(Contains("self.model")));
  EXPECT_THAT(names, Not(Contains("grads")));
}

// Annotated fields without a value (`rank: int`, as in dataclasses) have no right-hand side;
// reading the class's attributes from a method must not touch the missing node.
TEST(ScopeTest, AnnotatedFieldsWithoutValueAreClassAttributes) {
  Document document = Parse(R"py(class Config:
    rank: int
    size: int = 2

    def world(self):
        # @in-method
        return self.size
)py",
                            "pkg/config.py");
  const std::vector<std::string> names = Names(document, At(document, "in-method"));
  EXPECT_THAT(names, Contains("self.rank"));
  EXPECT_THAT(names, Contains("self.size"));
}

TEST(ScopeTest, NearestDefinitionWins) {
  Document document = Parse(R"py(x = 1

def f(x):
    # @param
    x = x + 1
    # @rebound
    for x in range(3):
        # @loop
        pass
)py");
  auto find = [&](std::string_view marker) {
    const std::vector<ScopeName> names = NamesInScope(document, At(document, marker));
    const ScopeName* x = Lookup(names, "x");
    return x == nullptr ? ScopeName{} : *x;
  };
  EXPECT_EQ(find("param").kind, Kind::kParameter);
  EXPECT_EQ(find("rebound").kind, Kind::kLocal);
  EXPECT_EQ(find("rebound").line, 5);
  EXPECT_EQ(find("loop").kind, Kind::kLoopVariable);
  // Each name once.
  const std::vector<std::string> names = Names(document, At(document, "loop"));
  EXPECT_EQ(std::count(names.begin(), names.end(), "x"), 1);
}

TEST(ScopeTest, ModuleLevelAndClassBodyAndLambda) {
  Document document = Parse(R"py(import os
from pkg import *
a, (b, *c) = 1, (2, 3)

class Config:
    name = "x"
    # @class-body
    size = len(name)

fn = lambda u, v=1, *w, **k: u + v  # @lambda
)py");
  std::vector<std::string> at_class = Names(document, At(document, "class-body"));
  EXPECT_THAT(at_class, Contains("name"));
  EXPECT_THAT(at_class, Not(Contains("size")));
  EXPECT_THAT(at_class, Contains("os"));
  EXPECT_THAT(at_class, Contains("c"));
  EXPECT_THAT(at_class, Contains("fn"));
  EXPECT_THAT(at_class, Not(Contains("*")));
  std::vector<std::string> in_lambda = Names(document, At(document, "lambda", "u + v"));
  for (const char* name : {"u", "v", "w", "k"}) EXPECT_THAT(in_lambda, Contains(name));
  EXPECT_THAT(Names(document, At(document, "class-body")), Not(Contains("u")));
}

}  // namespace
}  // namespace smallfix
