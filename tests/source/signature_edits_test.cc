#include "engine/source/signature_edits.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

using testing::ApplyChecked;
using testing::Find;
using testing::Parse;

std::string Add(const std::string& source, std::string_view name, std::string_view value) {
  Document document = Parse(source);
  return ApplyChecked(document,
                      AddParameter(document, Find(document, "function_definition"), name, value));
}

TEST(ParametersTest, KnowsEveryKind) {
  Document document = Parse("def f(a, /, b=1, *args, c, d: int = 2, **kw): pass\n");
  std::vector<Parameter> parameters = Parameters(document, Find(document, "function_definition"));
  ASSERT_EQ(parameters.size(), 6u);
  EXPECT_EQ(parameters[0].kind, Parameter::Kind::kPositionalOnly);
  EXPECT_EQ(parameters[1].name, "b");
  EXPECT_TRUE(parameters[1].has_default);
  EXPECT_EQ(parameters[2].kind, Parameter::Kind::kVarPositional);
  EXPECT_EQ(parameters[2].name, "args");
  EXPECT_EQ(parameters[3].kind, Parameter::Kind::kKeywordOnly);
  EXPECT_EQ(parameters[4].name, "d");
  EXPECT_EQ(parameters[5].kind, Parameter::Kind::kVarKeyword);
}

TEST(AddParameterTest, PlacesItWherePythonAllowsIt) {
  EXPECT_EQ(Add("def f(self, x):\n    pass\n", "group", "None"),
            "def f(self, x, group=None):\n    pass\n");
  EXPECT_EQ(Add("def f():\n    pass\n", "group", "None"), "def f(group=None):\n    pass\n");
  EXPECT_EQ(Add("def f(x, **kwargs):\n    pass\n", "group", "None"),
            "def f(x, group=None, **kwargs):\n    pass\n");
  EXPECT_EQ(Add("def f(x, *args, y=2):\n    pass\n", "group", "None"),
            "def f(x, *args, y=2, group=None):\n    pass\n");
  EXPECT_EQ(Add("def f(x, *, y):\n    pass\n", "z", ""), "def f(x, *, y, z):\n    pass\n");
}

TEST(AddParameterTest, StarParametersGoWherePythonWantsThem) {
  EXPECT_EQ(Add("def f(x, y=1):\n    pass\n", "**kwargs", ""), "def f(x, y=1, **kwargs):\n    pass\n");
  Document bare = Parse("def f(x, *, y, **kw):\n    pass\n");
  EXPECT_EQ(AddParameter(bare, Find(bare, "function_definition"), "*args", "").status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Add("def f(x, y=1, **kw):\n    pass\n", "*args", ""), "def f(x, y=1, *args, **kw):\n    pass\n");
  Document document = Parse("def f(x, **kw): pass\n");
  EXPECT_EQ(AddParameter(document, Find(document, "function_definition"), "**extra", "").status().code(),
            absl::StatusCode::kAlreadyExists);
}

TEST(AddParameterTest, MultiLineSignaturesKeepTheirLayout) {
  EXPECT_EQ(Add(R"py(@torch.jit.ignore
async def forward(
    self,
    hidden,  # [s, b, h]
    mask=None,
    **kwargs,
):
    pass
)py", "layer_past", "None"),
            R"py(@torch.jit.ignore
async def forward(
    self,
    hidden,  # [s, b, h]
    mask=None,
    layer_past=None,
    **kwargs,
):
    pass
)py");
  EXPECT_EQ(Add("def f(\n\tself,\n\tx,\n):\n\tpass\n", "y", "0"),
            "def f(\n\tself,\n\tx,\n\ty=0,\n):\n\tpass\n");
}

TEST(AddParameterTest, RefusesClashesAndInvalidOrder) {
  Document document = Parse("def f(x, y=1): pass\n");
  TSNode def = Find(document, "function_definition");
  EXPECT_EQ(AddParameter(document, def, "x", "0").status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(AddParameter(document, def, "z", "").status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(SetParameterDefaultTest, AddsOrReplacesADefault) {
  Document document = Parse("def f(x, y: list = [], *, z: int): pass\n");
  TSNode def = Find(document, "function_definition");
  EXPECT_EQ(ApplyChecked(document, SetParameterDefault(document, def, "y", "None")),
            "def f(x, y: list = None, *, z: int): pass\n");
  EXPECT_EQ(ApplyChecked(document, SetParameterDefault(document, def, "x", "0")),
            "def f(x=0, y: list = [], *, z: int): pass\n");
  EXPECT_EQ(SetParameterDefault(document, def, "w", "0").status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace smallfix
