// The look-ups that check a call against its callee's signature with no failure to go on.
#include <map>

#include "engine/index/repo_index.h"
#include "engine/patterns/lookups/lookup.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;
using testing::Find;
using testing::Parse;

constexpr char kModule[] = R"py(
class Loop:
    def __init__(self, numel, world_size):
        self.world_size = world_size
        self.numel = numel

    def split(self, numel, world_size, *, device=None):
        return numel // world_size

    def shard(self, device, opts):
        a = self.split(self.numel)
        b = self.split(self.numel, world_size=2, cp_enabled=True)
        c = self.split(self.numel, 2, device)
        d = self.split(self.numel, **opts)
        return a, b, c, d

    def pair(self):
        return self.numel, self.world_size

    def validate(self, step=None):
        return step

    def step(self):
        return self.validate()

    def unpack(self):
        p = self.pair()
        x, y, _ = self.pair()
        q = self.pair()
        total = p.numel + q[0]
        return total


def shard_model(model, mesh, enable_cp=False, enable_tp=True):
    return model


def apply(shard_model, model):
    return shard_model(model, cp_enabled=True)


def build(model, mesh, forward_only):
    shard_model(model, mesh, cp_enabled=True, enable_tp=False)
    return shard_model(model, mesh, enable_tp=True, enable_c=True)
)py";

class LookupsCallsTest : public ::testing::Test {
 protected:
  LookupsCallsTest() : documents_{Parse(kModule, "m.py")}, index_(RepoIndex::FromDocuments(documents_)) {
    context_.index = &index_;
    context_.load = [this](const std::string&) -> absl::StatusOr<Document> { return documents_[0]; };
  }

  // Runs the look-up `name` with `args` on the call starting with `prefix` (captured as @call); the
  // bindings of each answer, or the failure.
  absl::StatusOr<std::vector<MatchState>> Run(std::string_view name, std::string_view prefix, LookupArgs args) {
    MatchState state;
    state.document = &documents_[0];
    const TSNode call = Find(documents_[0], "call", prefix);
    EXPECT_FALSE(ts_node_is_null(call)) << prefix;
    state.nodes["call"] = call;
    state.statement = ts_node_parent(call);
    while (!IsStatement(state.statement)) state.statement = ts_node_parent(state.statement);
    args["call"] = "call";
    std::vector<MatchState> more;
    if (absl::Status status = FindLookupSpec(name)->run(args, context_, state, more); !status.ok()) return status;
    more.insert(more.begin(), state);
    return more;
  }

  std::vector<Document> documents_;
  RepoIndex index_;
  MatchContext context_;
};

TEST_F(LookupsCallsTest, RejectsAKeywordOnlyWhenNoDefTakesIt) {
  auto rejects = Run("call-rejects-keyword", "self.split(self.numel, world_size", {{"name", "cp_enabled"}});
  ASSERT_TRUE(rejects.ok()) << rejects.status();
  EXPECT_EQ(rejects->front().bindings["callee"], "Loop.split");
  EXPECT_FALSE(Run("call-rejects-keyword", "self.split(self.numel, world_size", {{"name", "world_size"}}).ok());
  // A call of a module-level def: shard_model has no **kwargs either.
  EXPECT_TRUE(Run("call-rejects-keyword", "shard_model(model, mesh, cp", {{"name", "cp_enabled"}}).ok());
}

TEST_F(LookupsCallsTest, ANameThatShadowsTheDefIsNotTheDef) {
  auto status = Run("call-rejects-keyword", "shard_model(model, cp", {{"name", "cp_enabled"}});
  EXPECT_FALSE(status.ok());
}

TEST_F(LookupsCallsTest, NearestParameterSkipsWhatTheCallPassesAndMatchesWordEndings) {
  auto rejects = Run("call-rejects-keyword", "shard_model(model, mesh, cp", {{"name", "cp_enabled"}});
  ASSERT_TRUE(rejects.ok());
  MatchState state = rejects->front();
  std::vector<MatchState> more;
  ASSERT_TRUE(FindLookupSpec("nearest-parameter")->run({{"name", "cp_enabled"}, {"call", "call"}}, context_, state, more)
                  .ok());
  EXPECT_EQ(state.bindings["parameter"], "enable_cp");  // enabled / enable, cp / cp
  // enable_c is nearest to enable_tp by letters, but the call passes enable_tp already.
  auto typo = Run("call-rejects-keyword", "shard_model(model, mesh, enable_tp", {{"name", "enable_c"}});
  ASSERT_TRUE(typo.ok());
  state = typo->front();
  ASSERT_TRUE(FindLookupSpec("nearest-parameter")->run({{"name", "enable_c"}, {"call", "call"}}, context_, state, more)
                  .ok());
  EXPECT_EQ(state.bindings["parameter"], "enable_cp");
}

TEST_F(LookupsCallsTest, MissingParameterByPositionOrKeyword) {
  auto positional = Run("call-misses-parameter", "self.split(self.numel)",
                        {{"required", "yes"}, {"pass", "positional"}});
  ASSERT_TRUE(positional.ok()) << positional.status();
  ASSERT_EQ(positional->size(), 1u);
  EXPECT_EQ(positional->front().bindings["argument"], "world_size");
  EXPECT_EQ(positional->front().bindings["value"], "self.world_size");
  EXPECT_FALSE(Run("call-misses-parameter", "self.split(self.numel)", {{"required", "yes"}, {"pass", "keyword"}})
                   .ok());
  // An optional keyword-only parameter with the same name in scope.
  auto optional = Run("call-misses-parameter", "self.split(self.numel)", {{"required", "no"}, {"pass", "keyword"}});
  ASSERT_TRUE(optional.ok()) << optional.status();
  EXPECT_EQ(optional->front().bindings["argument"], "device");
  EXPECT_EQ(optional->front().bindings["value"], "device");
  // self.step is a method, no value for step.
  EXPECT_FALSE(Run("call-misses-parameter", "self.validate()", {{"required", "no"}, {"pass", "positional"}}).ok());
  // **opts may pass anything.
  EXPECT_FALSE(Run("call-misses-parameter", "self.split(self.numel, **", {{"required", "no"}, {"pass", "keyword"}})
                   .ok());
}

TEST_F(LookupsCallsTest, ExcessPositionalBindsTheArgumentToDrop) {
  auto excess = Run("call-excess-positional", "self.split(self.numel, 2", {});
  ASSERT_TRUE(excess.ok()) << excess.status();
  EXPECT_EQ(excess->front().bindings["excess"], "device");
  EXPECT_TRUE(excess->front().nodes.contains("excess"));
  EXPECT_FALSE(Run("call-excess-positional", "self.split(self.numel)", {}).ok());
}

TEST_F(LookupsCallsTest, TupleReturnTargets) {
  MatchState state;
  state.document = &documents_[0];
  auto run = [&](std::string_view statement_prefix) -> absl::StatusOr<std::string> {
    const TSNode assignment = Find(documents_[0], "assignment", statement_prefix);
    EXPECT_FALSE(ts_node_is_null(assignment)) << statement_prefix;
    state.nodes["call"] = ts_node_child_by_field_name(assignment, "right", 5);
    state.nodes["target"] = ts_node_child_by_field_name(assignment, "left", 4);
    state.statement = ts_node_parent(assignment);
    std::vector<MatchState> more;
    absl::Status status = FindLookupSpec("tuple-return-targets")->run({{"call", "call"}, {"target", "target"}}, context_,
                                    state, more);
    if (!status.ok()) return status;
    return state.bindings["targets"];
  };
  EXPECT_EQ(run("p = self.pair()").value_or("fails"), "p, _");
  EXPECT_EQ(run("x, y, _ = self.pair()").value_or("fails"), "x, y");
  EXPECT_FALSE(run("q = self.pair()").ok());  // q[0] reads it as a tuple
  EXPECT_FALSE(run("a = self.split(").ok());  // split returns no tuple
}

}  // namespace
}  // namespace smallfix
