// Guard synthesis over hand-written facts: which conditions it keeps, which way round, in what
// order, and what it says they rest on.
#include "engine/facts/guard_synthesis.h"

#include <string>

#include "absl/strings/str_cat.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Not;

RuntimeFacts Parse(const std::string& json) {
  absl::StatusOr<RuntimeFacts> facts = ParseRuntimeFacts(json);
  EXPECT_TRUE(facts.ok()) << facts.status();
  return facts.ok() ? *std::move(facts) : RuntimeFacts{};
}

std::vector<std::string> Conditions(const std::vector<GuardCondition>& found) {
  std::vector<std::string> out;
  for (const GuardCondition& c : found) out.push_back(c.condition);
  return out;
}

GuardSite Site(std::string statement, std::vector<std::string> bound = {}) {
  GuardSite site{"pkg/reduce.py", 9, std::move(statement), nullptr};
  site.bound = [bound](std::string_view name) {
    return std::find(bound.begin(), bound.end(), name) != bound.end();
  };
  return site;
}

// A frozen parameter: `p.grad` None in the failing run, set in two passing runs.
constexpr char kFrozen[] = R"json({"version": 1,
  "exception": {"type": "AttributeError", "message": "'NoneType' object has no attribute 'numel'"},
  "frames": [{"file": "pkg/reduce.py", "line": 9, "function": "sizes", "locals": {
    "p": {"type": "Parameter", "module": "torch.nn.parameter", "shape": [2, 3],
          "dtype": "torch.float32", "device": "cpu", "requires_grad": false,
          "attrs_none": ["grad", "grad_fn"]},
    "total": {"type": "int", "module": "builtins", "literal": "6"},
    "torch": {"type": "module", "module": "builtins"}}}],
  "passing": [
    {"test": "t::a", "file": "pkg/reduce.py", "line": 9, "locals": {
      "p": {"type": "Parameter", "module": "torch.nn.parameter", "shape": [4],
            "dtype": "torch.float32", "device": "cpu", "requires_grad": true,
            "attrs_none": ["grad_fn"]},
      "total": {"type": "int", "module": "builtins", "literal": "6"}}},
    {"test": "t::b", "file": "pkg/reduce.py", "line": 9, "locals": {
      "p": {"type": "Parameter", "module": "torch.nn.parameter", "shape": [1],
            "dtype": "torch.float32", "device": "cpu", "requires_grad": true,
            "attrs_none": ["grad_fn"]}}},
    {"test": "t::c", "file": "pkg/other.py", "line": 9, "locals": {
      "p": {"type": "Parameter", "attrs_none": ["grad"]}}}]})json";

TEST(GuardSynthesisTest, TheNoneAttributeThePassingRunsHadSetComesFirst) {
  const RuntimeFacts facts = Parse(kFrozen);
  const std::vector<GuardCondition> found =
      SynthesizeGuards(facts, Site("total += p.grad.numel()", {"torch"}));
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found.front().condition, "p.grad is None");
  EXPECT_EQ(found.front().negation, "p.grad is not None");
  EXPECT_EQ(found.front().passing_against, 2);  // pkg/other.py's run is at another line
  EXPECT_EQ(found.front().evidence,
            "`p.grad` was None at pkg/reduce.py:9 in the failing run and was not None in 2 "
            "passing tests");
  // requires_grad told the runs apart too, with less weight than a None check.
  EXPECT_THAT(Conditions(found), Contains("not p.requires_grad"));
  // grad_fn was None in every run, the dtype and device the same: nothing to tell.
  EXPECT_THAT(Conditions(found), Not(Contains("p.grad_fn is None")));
  EXPECT_THAT(Conditions(found), Not(Contains("p.dtype == torch.float32")));
  // A local that was the same in a passing run is no guard, and modules are skipped.
  EXPECT_THAT(Conditions(found), Not(Contains("total == 6")));
}

TEST(GuardSynthesisTest, NoFrameAtTheSiteMeansNoConditions) {
  const RuntimeFacts facts = Parse(kFrozen);
  GuardSite site = Site("total += p.grad.numel()");
  site.line = 10;
  EXPECT_THAT(SynthesizeGuards(facts, site), IsEmpty());
}

// Without passing runs only what breaks code by itself is kept: an empty list, a zero.
constexpr char kEmpty[] = R"json({"version": 1,
  "exception": {"type": "ZeroDivisionError", "message": "division by zero"},
  "frames": [{"file": "pkg/reduce.py", "line": 9, "function": "mean", "locals": {
    "losses": {"type": "list", "module": "builtins", "len": 0},
    "count": {"type": "int", "module": "builtins", "literal": "0"},
    "scale": {"type": "float", "module": "builtins", "literal": "2.0"},
    "ready": {"type": "bool", "module": "builtins", "literal": "True"}}}]})json";

TEST(GuardSynthesisTest, WithoutPassingRunsOnlyTellingValuesAreKept) {
  const RuntimeFacts facts = Parse(kEmpty);
  const std::vector<GuardCondition> found =
      SynthesizeGuards(facts, Site("return sum(losses) / count * scale"), 5);
  EXPECT_THAT(Conditions(found), ElementsAre("not losses", "count == 0"));
  EXPECT_EQ(found[0].negation, "losses");
  EXPECT_EQ(found[1].evidence, "`count` was 0 at pkg/reduce.py:9 in the failing run");
}

// The reverse: the passing runs had None where the failing one had a value, and numbers and
// types that tell the runs apart.
constexpr char kReverse[] = R"json({"version": 1,
  "exception": {"type": "RuntimeError", "message": "shape mismatch"},
  "frames": [{"file": "pkg/reduce.py", "line": 9, "function": "step", "locals": {
    "mask": {"type": "Tensor", "module": "torch", "shape": [4]},
    "world_size": {"type": "int", "module": "builtins", "literal": "1"},
    "chunks": {"type": "tuple", "module": "builtins", "len": 2}}}],
  "passing": [
    {"test": "t::a", "file": "pkg/reduce.py", "line": 9, "locals": {
      "mask": {"type": "NoneType", "module": "builtins", "none": true},
      "world_size": {"type": "int", "module": "builtins", "literal": "2"},
      "chunks": {"type": "list", "module": "builtins", "len": 2}}},
    {"test": "t::b", "file": "pkg/reduce.py", "line": 9, "locals": {
      "world_size": {"type": "int", "module": "builtins", "literal": "4"}}}]})json";

TEST(GuardSynthesisTest, ConditionsTheFailingRunAloneMet) {
  const RuntimeFacts facts = Parse(kReverse);
  const std::vector<GuardCondition> found =
      SynthesizeGuards(facts, Site("x = x[mask].view(world_size, -1)", {"torch"}), 10);
  const std::vector<std::string> conditions = Conditions(found);
  // `mask is not None` tells the runs apart, but None was the passing runs' value: it ranks
  // below a constant only the failing run had.
  EXPECT_EQ(conditions.front(), "world_size == 1");
  EXPECT_THAT(conditions, Contains("mask is not None"));
  EXPECT_THAT(conditions, Contains("world_size == 1"));
  EXPECT_THAT(conditions, Contains("world_size <= 1"));
  EXPECT_THAT(conditions, Contains("isinstance(chunks, tuple)"));
  EXPECT_THAT(conditions, Contains("isinstance(mask, torch.Tensor)"));
  // `chunks` is read nowhere in the statement, so its guard ranks below those on `mask`.
  auto score = [&](const std::string& c) {
    return std::find_if(found.begin(), found.end(), [&](auto& g) { return g.condition == c; })
        ->score;
  };
  EXPECT_LT(score("isinstance(chunks, tuple)"), score("isinstance(mask, torch.Tensor)"));
}

TEST(GuardSynthesisTest, ATypeTheSiteCannotNameIsNotTested) {
  const RuntimeFacts facts = Parse(kReverse);
  const std::vector<std::string> conditions =
      Conditions(SynthesizeGuards(facts, Site("x = x[mask]"), 10));
  EXPECT_THAT(conditions, Not(Contains("isinstance(mask, torch.Tensor)")));
}

// hasattr for the local whose class lacked the attribute; a world size of one.
constexpr char kMissing[] = R"json({"version": 1,
  "exception": {"type": "AttributeError", "message": "'SGD' object has no attribute 'consolidate'",
                "attrs": {"name": "consolidate", "obj_type": "torch.optim.sgd.SGD"}},
  "frames": [{"file": "pkg/reduce.py", "line": 9, "function": "save", "locals": {
    "opt": {"type": "SGD", "module": "torch.optim.sgd"}}}],
  "distributed": {"rank": 0, "world_size": 1, "backend": "gloo"}})json";

TEST(GuardSynthesisTest, AMissingAttributeAndAGroupOfOne) {
  const RuntimeFacts facts = Parse(kMissing);
  const std::vector<GuardCondition> found =
      SynthesizeGuards(facts, Site("opt.consolidate()", {"dist"}));
  EXPECT_THAT(Conditions(found),
              ElementsAre("not hasattr(opt, \"consolidate\")", "dist.get_world_size() == 1"));
  EXPECT_EQ(found[0].negation, "hasattr(opt, \"consolidate\")");
  EXPECT_EQ(found[1].negation, "dist.get_world_size() > 1");
}

TEST(GuardSynthesisTest, ReadsWholeNamesOnly) {
  const RuntimeFacts facts = Parse(R"json({"version": 1,
    "exception": {"type": "AttributeError", "message": "'NoneType' object has no attribute 'add_'"},
    "frames": [{"file": "pkg/reduce.py", "line": 9, "function": "f", "locals": {
      "p": {"type": "NoneType", "none": true}, "up": {"type": "NoneType", "none": true}}}]})json");
  const std::vector<GuardCondition> found = SynthesizeGuards(facts, Site("up.grad.add_(1)"));
  EXPECT_THAT(Conditions(found), ElementsAre("up is None", "p is None"));
  EXPECT_GT(found[0].score, found[1].score);
}

TEST(GuardSynthesisTest, ATestThatRanTheLineTwiceCountsOnce) {
  const RuntimeFacts facts = Parse(R"json({"version": 1,
    "exception": {"type": "TypeError", "message": "'NoneType' object is not iterable"},
    "frames": [{"file": "pkg/reduce.py", "line": 9, "function": "f", "locals": {
      "xs": {"type": "NoneType", "none": true}}}],
    "passing": [
      {"test": "t::a", "file": "pkg/reduce.py", "line": 9, "locals": {"xs": {"type": "list", "len": 1}}},
      {"test": "t::a", "file": "pkg/reduce.py", "line": 9, "locals": {"xs": {"type": "list", "len": 2}}}]})json");
  const std::vector<GuardCondition> found = SynthesizeGuards(facts, Site("for x in xs:"));
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found.front().condition, "xs is None");
  EXPECT_EQ(found.front().passing_against, 1);
}

TEST(GuardSynthesisTest, PrivateAttributesOnlyOfSelf) {
  const RuntimeFacts facts = Parse(R"json({"version": 1,
    "exception": {"type": "TypeError", "message": "'NoneType' object is not callable"},
    "frames": [{"file": "pkg/reduce.py", "line": 9, "function": "f", "locals": {
      "self": {"type": "Reducer", "attrs_none": ["_hook"]},
      "model": {"type": "Linear", "module": "torch.nn.modules.linear",
                "attrs_none": ["_is_full_backward_hook"]}}}]})json");
  EXPECT_THAT(Conditions(SynthesizeGuards(facts, Site("self._hook(model)"))),
              ElementsAre("self._hook is None"));
}

// With no passing run at the line, a condition is a guess about the failure: only the kinds
// that explain the exception are written (a zero for a ZeroDivisionError, not a None).
TEST(GuardSynthesisTest, WithoutPassingRunsOnlyConditionsThatExplainTheException) {
  constexpr char kFrame[] = R"json(
    "frames": [{"file": "pkg/reduce.py", "line": 9, "function": "f", "locals": {
      "world_size": {"type": "int", "module": "builtins", "literal": "0"},
      "group": {"type": "NoneType", "module": "builtins", "none": true}}}]})json";
  const RuntimeFacts division = Parse(absl::StrCat(R"json({"version": 1,
    "exception": {"type": "ZeroDivisionError", "message": "division by zero"},)json", kFrame));
  EXPECT_THAT(Conditions(SynthesizeGuards(division, Site("n // world_size + group.size()"))),
              ElementsAre("world_size == 0"));
  const RuntimeFacts none = Parse(absl::StrCat(R"json({"version": 1,
    "exception": {"type": "AttributeError", "message": "'NoneType' object has no attribute 'size'"},)json",
                                               kFrame));
  EXPECT_THAT(Conditions(SynthesizeGuards(none, Site("n // world_size + group.size()"))),
              ElementsAre("group is None"));
  // A caller's zero is no guess about this failure: the raising frame read the bad value.
  const RuntimeFacts caller = Parse(R"json({"version": 1,
    "exception": {"type": "ZeroDivisionError", "message": "division by zero"},
    "frames": [{"file": "pkg/reduce.py", "line": 9, "function": "step", "locals": {
                  "momentum": {"type": "float", "module": "builtins", "literal": "0.0"}}},
               {"file": "pkg/split.py", "line": 4, "function": "split", "locals": {
                  "world_size": {"type": "int", "module": "builtins", "literal": "0"}}}]})json");
  EXPECT_THAT(Conditions(SynthesizeGuards(caller, Site("split(n, world_size)"))), IsEmpty());
}

// A raise that names the count it refuses ("0 devices") is about that zero: with no passing run
// at the line, the zero is kept, first since the raise reads it; so is the empty list, as a
// count of zero may be one's length.
TEST(GuardSynthesisTest, WithoutPassingRunsAZeroTheMessageCountsIsKept) {
  constexpr char kFrame[] = R"json(
    "frames": [{"file": "pkg/reduce.py", "line": 9, "function": "usable", "locals": {
      "requested": {"type": "int", "module": "builtins", "literal": "0"},
      "visible_devices": {"type": "list", "module": "builtins", "len": 0}}}]})json";
  const RuntimeFacts counted = Parse(absl::StrCat(R"json({"version": 1,
    "exception": {"type": "ValueError", "message": "You asked for 0 devices but none are visible"},)json",
                                                  kFrame));
  const GuardSite site = Site(R"(raise ValueError(f"You asked for {requested} devices but none are visible"))");
  EXPECT_THAT(Conditions(SynthesizeGuards(counted, site)),
              ElementsAre("requested == 0", "not visible_devices"));
  // "10 devices" or "1.0 devices" counts no zero.
  for (const char* message : {"You asked for 10 devices", "scale 1.0 devices", "v0 devices"}) {
    const RuntimeFacts other = Parse(absl::StrCat(R"json({"version": 1,
      "exception": {"type": "ValueError", "message": ")json", message, R"json("},)json", kFrame));
    EXPECT_THAT(SynthesizeGuards(other, site), IsEmpty()) << message;
  }
}

// A placement of a class the passing runs never had at the line: the classes they had, as the
// site names them (by name when it imports them so, else through their module).
constexpr char kPlacements[] = R"json({"version": 1,
  "exception": {"type": "AttributeError", "message": "'Replicate' object has no attribute 'dim'"},
  "frames": [{"file": "pkg/reduce.py", "line": 9, "function": "dims", "locals": {
    "placement": {"type": "Replicate", "module": "torch.distributed.tensor.placement_types"}}}],
  "passing": [
    {"test": "t::a", "file": "pkg/reduce.py", "line": 9, "locals": {
      "placement": {"type": "Shard", "module": "torch.distributed.tensor.placement_types"}}},
    {"test": "t::b", "file": "pkg/reduce.py", "line": 9, "locals": {
      "placement": {"type": "_StridedShard", "module": "torch.distributed.tensor.placement_types"}}},
    {"test": "t::c", "file": "pkg/reduce.py", "line": 9, "locals": {
      "placement": {"type": "Shard", "module": "torch.distributed.tensor.placement_types"}}}]})json";

TEST(GuardSynthesisTest, TheClassesThePassingRunsHad) {
  const RuntimeFacts facts = Parse(kPlacements);
  const std::vector<GuardCondition> found =
      SynthesizeGuards(facts, Site("if placement.dim == dim:", {"Shard", "_StridedShard"}), 10);
  auto it = std::find_if(found.begin(), found.end(), [](const GuardCondition& g) {
    return g.negation == "isinstance(placement, (Shard, _StridedShard))";
  });
  ASSERT_NE(it, found.end());
  EXPECT_EQ(it->condition, "not isinstance(placement, (Shard, _StridedShard))");
  // Through the module where the site imports it and not the classes.
  EXPECT_THAT(Conditions(SynthesizeGuards(facts, Site("if placement.dim == dim:", {"torch"}), 10)),
              Contains("not isinstance(placement, (torch.distributed.tensor.placement_types."
                       "Shard, torch.distributed.tensor.placement_types._StridedShard))"));
  // Nowhere when the site can name neither.
  for (const GuardCondition& g : SynthesizeGuards(facts, Site("if placement.dim == dim:"), 10))
    EXPECT_EQ(g.condition.find("not isinstance(placement, ("), std::string::npos) << g.condition;
}

TEST(GuardSynthesisTest, FindsAnExpressionOnlyWhole) {
  EXPECT_EQ(FindExpression("total += p.grad.numel()", "p.grad"), 9u);
  EXPECT_EQ(FindExpression("up.grad + p.grad", "p.grad"), 10u);
  EXPECT_EQ(FindExpression("p.gradient", "p.grad"), std::string_view::npos);
  EXPECT_EQ(FindExpression("self.p.grad", "p.grad"), std::string_view::npos);
  EXPECT_EQ(FindExpression("x", ""), std::string_view::npos);
}

}  // namespace
}  // namespace smallfix
