#include "engine/source/call_edits.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

using testing::ApplyChecked;
using testing::Find;
using testing::Parse;

std::string Add(const std::string& source, std::string_view callee, std::string_view name,
                std::string_view value) {
  Document document = Parse(source);
  return ApplyChecked(document, AddKeywordArgument(document, Find(document, "call", callee), name, value));
}

std::string Drop(const std::string& source, std::string_view callee, std::string_view name) {
  Document document = Parse(source);
  return ApplyChecked(document, DropKeywordArgument(document, Find(document, "call", callee), name));
}

TEST(AddKeywordArgumentTest, OneLineCalls) {
  EXPECT_EQ(Add("dist.barrier()\n", "dist", "group", "group"), "dist.barrier(group=group)\n");
  EXPECT_EQ(Add("dist.all_reduce(t, op=SUM)\n", "dist", "group", "self.group"),
            "dist.all_reduce(t, op=SUM, group=self.group)\n");
  EXPECT_EQ(Add("f(a, **extra)\n", "f", "b", "1"), "f(a, **extra, b=1)\n");
}

TEST(AddKeywordArgumentTest, MultiLineCallsKeepLayoutCommentsAndTrailingComma) {
  EXPECT_EQ(Add(R"py(engine = Engine(
    model,
    # the optimizer comes from the config
    optimizer=opt,  # may be None
)
)py", "Engine", "config", "cfg"),
            R"py(engine = Engine(
    model,
    # the optimizer comes from the config
    optimizer=opt,  # may be None
    config=cfg,
)
)py");
  EXPECT_EQ(Add("x = build(\n        a,\n        b  # last\n)\n", "build", "c", "3"),
            "x = build(\n        a,\n        b,  # last\n        c=3\n)\n");
  EXPECT_EQ(Add("x = build(a,\n          b)\n", "build", "c", "3"), "x = build(a,\n          b, c=3)\n");
}

TEST(AddKeywordArgumentTest, RefusesDuplicatesAndNonCalls) {
  Document document = Parse("f(x, group=g)\n(y for y in z)\n");
  EXPECT_EQ(AddKeywordArgument(document, Find(document, "call"), "group", "h").status().code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_FALSE(AddKeywordArgument(document, Find(document, "generator_expression"), "a", "b").ok());
}

TEST(DropKeywordArgumentTest, InlineAndMultiLine) {
  EXPECT_EQ(Drop("Adam(params, lr=1e-3, fused=True)\n", "Adam", "fused"), "Adam(params, lr=1e-3)\n");
  EXPECT_EQ(Drop("Adam(params, fused=True, lr=1e-3)\n", "Adam", "fused"), "Adam(params, lr=1e-3)\n");
  EXPECT_EQ(Drop("Adam(fused=True)\n", "Adam", "fused"), "Adam()\n");
  EXPECT_EQ(Drop("Adam(params, fused=True,)\n", "Adam", "fused"), "Adam(params,)\n");
  EXPECT_EQ(Drop(R"py(opt = Adam(
    params,
    fused=True,  # needs torch 2.0
    lr=1e-3,
)
)py", "Adam", "fused"),
            R"py(opt = Adam(
    params,
    lr=1e-3,
)
)py");
  Document document = Parse("f(a)\n");
  EXPECT_EQ(DropKeywordArgument(document, Find(document, "call"), "b").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(RenameKeywordArgumentTest, KeepsTheValue) {
  Document document = Parse("checkpoint(fn, x, use_reentrent=False)\n");
  EXPECT_EQ(ApplyChecked(document, RenameKeywordArgument(document, Find(document, "call"),
                                                         "use_reentrent", "use_reentrant")),
            "checkpoint(fn, x, use_reentrant=False)\n");
}

}  // namespace
}  // namespace smallfix
