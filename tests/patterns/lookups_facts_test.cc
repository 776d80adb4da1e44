// The look-ups that read the failing run's facts: what each binds from hand-written facts, and
// why each does not hold.
#include <optional>
#include <string>
#include <vector>

#include "engine/facts/runtime_facts.h"
#include "engine/patterns/lookups/lookup.h"
#include "engine/source/syntax.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class FactsLookupTest : public ::testing::Test {
 protected:
  // Parses `code` as pkg/m.py and `json` as the run's facts; the site is `line` (1-based).
  void Load(const std::string& code, int line, const std::string& json) {
    absl::StatusOr<Document> parsed = Document::Parse("pkg/m.py", code);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    document_.emplace(*std::move(parsed));
    if (!json.empty()) {
      absl::StatusOr<RuntimeFacts> facts = ParseRuntimeFacts(json);
      ASSERT_TRUE(facts.ok()) << facts.status();
      facts_ = *std::move(facts);
      context_.runtime = &facts_;
    }
    state_ = MatchState();
    state_.document = &*document_;
    state_.statement = *StatementAtLine(*document_, line - 1);
    state_.bindings = {{"file", "pkg/m.py"},
                       {"line", std::to_string(line)},
                       {"statement", std::string(document_->NodeText(state_.statement))}};
    WalkTree(state_.statement, [&](TSNode node) {
      if (IsType(node, "call")) {
        state_.nodes["call"] = node;
        return Walk::kStop;
      }
      return Walk::kDescend;
    });
  }

  // Runs the look-up; on success, `key` of each answer, else the error.
  absl::StatusOr<std::vector<std::string>> Run(const char* name, const LookupArgs& args,
                                               const std::string& key) {
    std::vector<MatchState> more;
    if (absl::Status status = FindLookupSpec(name)->run(args, context_, state_, more);
        !status.ok()) {
      return status;
    }
    std::vector<std::string> out = {state_.bindings[key]};
    for (MatchState& other : more) out.push_back(other.bindings[key]);
    more_ = std::move(more);
    return out;
  }

  std::optional<Document> document_;
  RuntimeFacts facts_;
  MatchContext context_;
  MatchState state_;
  std::vector<MatchState> more_;
};

constexpr char kTwoNones[] = R"json({"version": 1,
  "exception": {"type": "TypeError", "message": "unsupported operand type(s) for +: 'NoneType' and 'NoneType'"},
  "frames": [{"file": "pkg/m.py", "line": 2, "function": "f", "locals": {
    "b": {"type": "Module", "attrs_none": ["bias"]},
    "a": {"type": "Module", "attrs_none": ["bias", "cache"]},
    "unused": {"type": "NoneType", "none": true}}}]})json";

TEST_F(FactsLookupTest, RuntimeNoneNamesWhatTheStatementReadsInOrder) {
  Load("def f(a, b, unused):\n    return a.bias + b.bias\n", 2, kTwoNones);
  absl::StatusOr<std::vector<std::string>> none = Run("runtime-none", {}, "none_value");
  ASSERT_TRUE(none.ok()) << none.status();
  // a.cache and `unused` were None too, but the statement reads neither.
  EXPECT_THAT(*none, ElementsAre("a.bias", "b.bias"));
  EXPECT_EQ(state_.bindings["fact"], "`a.bias` was None at pkg/m.py:2 in the failing run");
  EXPECT_EQ(more_[0].bindings["fact"], "`b.bias` was None at pkg/m.py:2 in the failing run");
}

TEST_F(FactsLookupTest, RuntimeNoneNeedsFactsAtTheSite) {
  Load("def f(a, b, unused):\n    return a.bias + b.bias\n", 2, "");
  EXPECT_THAT(Run("runtime-none", {}, "none_value").status().message(),
              HasSubstr("no runtime facts"));
  Load("def f(a, b, unused):\n    x = 1\n    return a.bias + b.bias\n", 3, kTwoNones);
  EXPECT_THAT(Run("runtime-none", {}, "none_value").status().message(),
              HasSubstr("no frame at pkg/m.py:3"));
}

constexpr char kAdamW[] = R"json({"version": 1,
  "exception": {"type": "TypeError", "message": "AdamW.__init__() got an unexpected keyword argument 'weight_decays'"},
  "frames": [{"file": "pkg/m.py", "line": 2, "function": "build", "locals": {}}],
  "callee": {"expression": "torch.optim.AdamW", "qualname": "torch.optim.adamw.AdamW", "signature": "(params, lr=0.001, weight_decay=0.01, *, fused=None)",
    "parameters": [{"name": "params", "kind": "POSITIONAL_OR_KEYWORD", "has_default": false},
                   {"name": "lr", "kind": "POSITIONAL_OR_KEYWORD", "has_default": true},
                   {"name": "weight_decay", "kind": "POSITIONAL_OR_KEYWORD", "has_default": true},
                   {"name": "fused", "kind": "KEYWORD_ONLY", "has_default": true}]}})json";

TEST_F(FactsLookupTest, RealCalleeGivesTheSignatureTheIndexLacks) {
  Load("def build(ps):\n    return torch.optim.AdamW(ps, 0.1, weight_decays=0.1)\n", 2, kAdamW);
  absl::StatusOr<std::vector<std::string>> callee =
      Run("real-callee", {{"call", "call"}}, "callee_params");
  ASSERT_TRUE(callee.ok()) << callee.status();
  EXPECT_THAT(*callee, ElementsAre("params, lr, weight_decay, fused"));
  EXPECT_EQ(state_.bindings["fact"],
            "the failing run's `torch.optim.adamw.AdamW` takes `(params, lr=0.001, "
            "weight_decay=0.01, *, fused=None)`");
  // nearest-parameter reads it: `lr` is passed by position already.
  absl::StatusOr<std::vector<std::string>> nearest =
      Run("nearest-parameter", {{"name", "weight_decays"}, {"call", "call"}}, "parameter");
  ASSERT_TRUE(nearest.ok()) << nearest.status();
  EXPECT_THAT(*nearest, ElementsAre("weight_decay"));
  // callee-lacks-parameter reads it too: a keyword-only parameter is one the callee has.
  EXPECT_FALSE(
      FindLookupSpec("callee-lacks-parameter")->run({{"name", "fused"}}, context_, state_, more_).ok());
  EXPECT_TRUE(FindLookupSpec("callee-lacks-parameter")
                  ->run({{"name", "weight_decays"}}, context_, state_, more_)
                  .ok());
}

TEST_F(FactsLookupTest, RealCalleeMustBeTheCallOnTheRaisingLine) {
  Load("def build(ps):\n    return torch.optim.SGD(ps, weight_decays=0.1)\n", 2, kAdamW);
  EXPECT_THAT(Run("real-callee", {{"call", "call"}}, "callee").status().message(),
              HasSubstr("called `torch.optim.AdamW`, not `torch.optim.SGD`"));
  // The expression, not only the last name: another object's AdamW is another callee.
  Load("def build(ps):\n    return my.AdamW(ps, weight_decays=0.1)\n", 2, kAdamW);
  EXPECT_FALSE(Run("real-callee", {{"call", "call"}}, "callee").ok());
}

constexpr char kMissingTopK[] = R"json({"version": 1,
  "exception": {"type": "TypeError", "message": "MoE.__init__() missing 1 required positional argument: 'top_k'"},
  "frames": [{"file": "pkg/m.py", "line": 2, "function": "build", "locals": {}}],
  "callee": {"qualname": "fastmoe.MoE", "signature": "",
    "parameters": [{"name": "d", "kind": "POSITIONAL_OR_KEYWORD", "has_default": false},
                   {"name": "top_k", "kind": "POSITIONAL_OR_KEYWORD", "has_default": false}]}})json";

TEST_F(FactsLookupTest, MissingArgumentReadsTheRealSignature) {
  // A capture without the called expression: the call's last name is the class's.
  Load("def build(d, moe_top_k):\n    return layers.MoE(d)\n", 2, kMissingTopK);
  ASSERT_TRUE(Run("real-callee", {{"call", "call"}}, "callee").ok());
  // No signature text: the fact lists the parameters.
  EXPECT_EQ(state_.bindings["fact"], "the failing run's `fastmoe.MoE` takes `(d, top_k)`");
  absl::StatusOr<std::vector<std::string>> value =
      Run("missing-argument", {{"call", "call"}, {"name", "top_k"}}, "value");
  ASSERT_TRUE(value.ok()) << value.status();
  EXPECT_THAT(*value, ElementsAre("moe_top_k"));
}

constexpr char kOwner[] = R"json({"version": 1,
  "exception": {"type": "AttributeError", "message": "module 'torch.cuda' has no attribute 'memory_cached'",
                "attrs": {"name": "memory_cached"}},
  "frames": [{"file": "pkg/m.py", "line": 2, "function": "f", "locals": {}}],
  "attribute_owner": {"type": "module", "qualname": "torch.cuda",
    "names": ["_memory_cached_impl", "empty_cache", "memory_reserved", "set_device"], "mro": []},
  "versions": {"torch": "2.13.0+cpu"}})json";

TEST_F(FactsLookupTest, RealNearestNameReadsWhatTheOwnerHas) {
  Load("def f():\n    return torch.cuda.memory_cached()\n", 2, kOwner);
  absl::StatusOr<std::vector<std::string>> nearest =
      Run("real-nearest-name", {{"name", "memory_cached"}}, "nearest");
  ASSERT_TRUE(nearest.ok()) << nearest.status();
  // The private name is nearer but no public API is renamed to one.
  EXPECT_THAT(*nearest, ElementsAre("memory_reserved"));
  EXPECT_EQ(state_.bindings["fact"],
            "`torch.cuda` has `memory_reserved` but no `memory_cached` in the installed version "
            "(torch 2.13.0+cpu)");
  EXPECT_THAT(Run("real-nearest-name", {{"name", "max_memory"}}, "nearest").status().message(),
              HasSubstr("missed `memory_cached`, not `max_memory`"));
}

TEST_F(FactsLookupTest, InstalledVersionIsTheMajorMinorRelease) {
  Load("def f():\n    return torch.cuda.memory_cached()\n", 2, kOwner);
  absl::StatusOr<std::vector<std::string>> version =
      Run("installed-version", {{"package", "torch.cuda"}}, "installed_version");
  ASSERT_TRUE(version.ok()) << version.status();
  EXPECT_THAT(*version, ElementsAre("2.13"));
  EXPECT_EQ(state_.bindings["fact"], "the failing run had torch 2.13.0+cpu installed");
  EXPECT_THAT(Run("installed-version", {{"package", "numpy"}}, "installed_version")
                  .status()
                  .message(),
              HasSubstr("no version of numpy"));
  facts_.versions["torch"] = "nightly";
  EXPECT_THAT(Run("installed-version", {{"package", "torch"}}, "installed_version")
                  .status()
                  .message(),
              HasSubstr("not major.minor"));
}

constexpr char kEmpty[] = R"json({"version": 1,
  "exception": {"type": "ZeroDivisionError", "message": "division by zero"},
  "frames": [{"file": "pkg/m.py", "line": 2, "function": "f", "locals": {
    "xs": {"type": "list", "module": "builtins", "len": 0},
    "n": {"type": "int", "module": "builtins", "literal": "0"}}}]})json";

TEST_F(FactsLookupTest, SynthesizedGuardBindsEachConditionWithItsOwnFact) {
  Load("def f(xs, n):\n    return sum(xs) / n\n", 2, kEmpty);
  state_.bindings["fact"] = "earlier";
  absl::StatusOr<std::vector<std::string>> guards = Run("synthesized-guard", {}, "guard");
  ASSERT_TRUE(guards.ok()) << guards.status();
  EXPECT_THAT(*guards, ElementsAre("not xs", "n == 0"));
  EXPECT_EQ(state_.bindings["guard_negation"], "xs");
  EXPECT_EQ(more_[0].bindings["guard_negation"], "n != 0");
  EXPECT_EQ(state_.bindings["fact"], "earlier; `xs` was empty at pkg/m.py:2 in the failing run");
  EXPECT_EQ(more_[0].bindings["fact"], "earlier; `n` was 0 at pkg/m.py:2 in the failing run");
}

}  // namespace
}  // namespace smallfix
