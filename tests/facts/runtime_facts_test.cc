#include "engine/facts/runtime_facts.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A capture of a frozen parameter's None .grad, with a passing run at the same line.
constexpr char kFacts[] = R"json({
  "version": 1,
  "test": "tests/test_reduce.py::test_frozen_param",
  "exception": {"type": "AttributeError",
                "message": "'NoneType' object has no attribute 'numel'",
                "attrs": {"name": "numel", "obj_type": "NoneType"}},
  "frames": [
    {"file": "tests/test_reduce.py", "line": 38, "function": "test_frozen_param", "locals": {}},
    {"file": "minizero/reduce.py", "line": 28, "function": "build_buckets",
     "locals": {
       "p": {"type": "Parameter", "module": "torch.nn.parameter", "none": false,
             "len": 2, "shape": [2, 3], "dtype": "torch.float32", "device": "cpu",
             "requires_grad": false, "attrs_none": ["grad", "grad_fn"],
             "repr": "Parameter containing: tensor(...)"},
       "current_numel": {"type": "int", "module": "builtins", "none": false, "literal": "0",
                         "len": null, "shape": null, "repr": "0"},
       "later": {"type": "NoneType", "none": true, "literal": "None"}
     }}
  ],
  "callee": null,
  "attribute_owner": {"type": "instance", "qualname": "builtins.NoneType",
                      "names": ["__bool__", "__class__"], "mro": ["builtins.NoneType", "builtins.object"]},
  "distributed": {"rank": 1, "world_size": 2, "backend": "gloo"},
  "versions": {"python": "3.11.2", "torch": "2.13.0"},
  "passing": [
    {"test": "tests/test_reduce.py::test_all_trainable", "file": "minizero/reduce.py", "line": 28,
     "locals": {"p": {"type": "Parameter", "none": false, "requires_grad": true, "attrs_none": []}}}
  ],
  "a_field_from_a_later_capture": {"ignored": true}
})json";

TEST(RuntimeFactsTest, ReadsEveryPart) {
  absl::StatusOr<RuntimeFacts> facts = ParseRuntimeFacts(kFacts);
  ASSERT_TRUE(facts.ok()) << facts.status();
  EXPECT_EQ(facts->test, "tests/test_reduce.py::test_frozen_param");
  EXPECT_EQ(facts->exception.type, "AttributeError");
  EXPECT_EQ(facts->exception.attrs.at("name"), "numel");
  ASSERT_EQ(facts->frames.size(), 2u);
  const FrameFacts& inner = facts->frames.back();
  EXPECT_EQ(inner.file, "minizero/reduce.py");
  EXPECT_EQ(inner.line, 28);
  EXPECT_EQ(inner.function, "build_buckets");
  const ValueFacts& p = inner.locals.at("p");
  EXPECT_EQ(p.type, "Parameter");
  EXPECT_EQ(p.module, "torch.nn.parameter");
  EXPECT_FALSE(p.none);
  EXPECT_EQ(p.len, 2);
  ASSERT_TRUE(p.shape.has_value());
  EXPECT_THAT(*p.shape, ElementsAre(2, 3));
  EXPECT_EQ(p.dtype, "torch.float32");
  EXPECT_EQ(p.device, "cpu");
  EXPECT_EQ(p.requires_grad, false);
  EXPECT_THAT(p.attrs_none, ElementsAre("grad", "grad_fn"));
  EXPECT_FALSE(p.literal.has_value());
  EXPECT_EQ(inner.locals.at("current_numel").literal, "0");
  EXPECT_FALSE(inner.locals.at("current_numel").shape.has_value());
  EXPECT_TRUE(inner.locals.at("later").none);
  EXPECT_FALSE(facts->callee.has_value());
  ASSERT_TRUE(facts->attribute_owner.has_value());
  EXPECT_EQ(facts->attribute_owner->kind, "instance");
  EXPECT_THAT(facts->attribute_owner->mro, ElementsAre("builtins.NoneType", "builtins.object"));
  ASSERT_TRUE(facts->distributed.has_value());
  EXPECT_EQ(facts->distributed->world_size, 2);
  EXPECT_EQ(facts->versions.at("torch"), "2.13.0");
  ASSERT_EQ(facts->passing.size(), 1u);
  EXPECT_EQ(facts->passing[0].line, 28);
  EXPECT_EQ(facts->passing[0].locals.at("p").requires_grad, true);
}

TEST(RuntimeFactsTest, ReadsACalleeSignature) {
  absl::StatusOr<RuntimeFacts> facts = ParseRuntimeFacts(R"json({
    "version": 1, "exception": {"type": "TypeError", "message": "got an unexpected keyword"},
    "callee": {"qualname": "torch.distributed.all_reduce", "expression": "dist.all_reduce",
               "signature": "(tensor, op=<RedOpType.SUM: 0>, group=None, async_op=False)",
               "parameters": [
                 {"name": "tensor", "kind": "POSITIONAL_OR_KEYWORD", "has_default": false},
                 {"name": "group", "kind": "POSITIONAL_OR_KEYWORD", "has_default": true,
                  "default": "None"}]}})json");
  ASSERT_TRUE(facts.ok()) << facts.status();
  ASSERT_TRUE(facts->callee.has_value());
  EXPECT_EQ(facts->callee->qualname, "torch.distributed.all_reduce");
  EXPECT_EQ(facts->callee->expression, "dist.all_reduce");
  ASSERT_EQ(facts->callee->parameters.size(), 2u);
  EXPECT_FALSE(facts->callee->parameters[0].has_default);
  EXPECT_FALSE(facts->callee->parameters[0].default_repr.has_value());
  EXPECT_EQ(facts->callee->parameters[1].default_repr, "None");
  EXPECT_TRUE(facts->frames.empty());
}

TEST(RuntimeFactsTest, FindFrameTakesTheInnermostAtTheLine) {
  absl::StatusOr<RuntimeFacts> facts = ParseRuntimeFacts(R"json({
    "version": 1, "exception": {"type": "RecursionError"},
    "frames": [{"file": "a.py", "line": 3, "function": "outer"},
               {"file": "a.py", "line": 3, "function": "inner"}]})json");
  ASSERT_TRUE(facts.ok()) << facts.status();
  const FrameFacts* frame = FindFrame(*facts, "a.py", 3);
  ASSERT_NE(frame, nullptr);
  EXPECT_EQ(frame->function, "inner");
  EXPECT_EQ(FindFrame(*facts, "a.py", 4), nullptr);
}

// The regression tests' run has passing facts and no failure.
TEST(RuntimeFactsTest, ReadsAPassingRunWithoutException) {
  absl::StatusOr<RuntimeFacts> facts = ParseRuntimeFacts(R"json({
    "version": 1, "exception": null,
    "passing": [{"test": "t.py::test_a", "file": "a.py", "line": 3, "locals": {}}]})json");
  ASSERT_TRUE(facts.ok()) << facts.status();
  EXPECT_TRUE(facts->exception.type.empty());
  ASSERT_EQ(facts->passing.size(), 1u);
  EXPECT_EQ(facts->passing[0].test, "t.py::test_a");
}

// Each wrong shape is refused with the path of the field that has it.
TEST(RuntimeFactsTest, NamesTheFieldWithTheWrongShape) {
  struct Case {
    const char* json;
    const char* error;
  };
  const Case cases[] = {
      {"[]", "expected a JSON object, got array"},
      {"{\"version\": 1, \"exception\": ", "not valid JSON"},
      {R"({"exception": {"type": "E"}})", "version: missing"},
      {R"({"version": 2, "exception": {"type": "E"}})", "version 2; this smallfix reads version 1"},
      {R"({"version": 1, "exception": {"message": "m"}})", "exception.type: missing"},
      {R"({"version": 1, "exception": {"type": "E", "attrs": {"name": 3}}})",
       "exception.attrs.name: expected a string, got number"},
      {R"({"version": 1, "exception": {"type": "E"}, "frames": {}})",
       "frames: expected an array, got object"},
      {R"({"version": 1, "exception": {"type": "E"}, "frames": [{"file": "a.py", "line": "9"}]})",
       "frames[0].line: expected an integer, got string"},
      {R"({"version": 1, "exception": {"type": "E"},
           "frames": [{"file": "a.py", "line": 9, "locals": {"p": {"type": "T", "shape": "2x3"}}}]})",
       "frames[0].locals.p.shape: expected an array of integers, got string"},
      {R"({"version": 1, "exception": {"type": "E"},
           "frames": [{"file": "a.py", "line": 9, "locals": {"p": {"type": "T", "none": 0}}}]})",
       "frames[0].locals.p.none: expected true or false, got number"},
      {R"j({"version": 1, "exception": {"type": "E"}, "callee": {"signature": "()"}})j",
       "callee.qualname: missing"},
      {R"({"version": 1, "exception": {"type": "E"}, "attribute_owner": {"type": "thing"}})",
       "attribute_owner.type: expected module, class or instance, got 'thing'"},
      {R"({"version": 1, "exception": {"type": "E"},
           "passing": [{"test": "t", "file": "a.py", "line": 1, "locals": []}]})",
       "passing[0].locals: expected an object, got array"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<RuntimeFacts> facts = ParseRuntimeFacts(c.json);
    ASSERT_FALSE(facts.ok()) << c.json;
    EXPECT_EQ(facts.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(facts.status().message(), HasSubstr(c.error)) << c.json;
    EXPECT_THAT(facts.status().message(), HasSubstr("runtime facts: "));
  }
}

}  // namespace
}  // namespace smallfix
