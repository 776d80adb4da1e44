// The `donor-edit` and `donor-insert` look-ups: what they take from a near copy of the site
// statement elsewhere in the file, and when they take nothing.
#include <string>
#include <vector>

#include "engine/patterns/lookups/lookup.h"
#include "engine/source/syntax.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

struct Answers {
  absl::Status status;
  std::vector<MatchState> states;  // every answer, the first one first
};

// Runs `run` at the statement on `line` (1-based) of `code`.
Answers RunAt(LookupBody* run, const LookupArgs& args, const std::string& code, int line) {
  static std::vector<Document>* keep = new std::vector<Document>();
  absl::StatusOr<Document> document = Document::Parse("m.py", code);
  EXPECT_TRUE(document.ok());
  keep->push_back(*std::move(document));
  const Document& doc = keep->back();
  MatchState state;
  state.document = &doc;
  state.statement = *StatementAtLine(doc, line - 1);
  state.bindings["line"] = std::to_string(line);
  std::vector<MatchState> more;
  Answers answers;
  answers.status = run(args, MatchContext{}, state, more);
  if (answers.status.ok()) {
    answers.states.push_back(state);
    for (MatchState& other : more) answers.states.push_back(other);
  }
  return answers;
}

TEST(DonorEditTest, TakesTheArgumentACopyPassesOnTheFaultLine) {
  const std::string code =
      "class Block:\n"
      "    def build(self, make):\n"
      "        self.q = make(\n"
      "            self.dim,\n"
      "            self.use_bias,\n"
      "        )\n"
      "    def extra(self, make):\n"
      "        self.v = make(\n"
      "            self.dim,\n"
      "            False,  # no bias here\n"
      "        )\n";
  Answers answers = RunAt(FindLookupSpec("donor-edit")->run, {}, code, 10);
  ASSERT_TRUE(answers.status.ok()) << answers.status;
  ASSERT_EQ(answers.states.size(), 1u);  // `v` -> `q` is a change of target, not offered
  EXPECT_EQ(answers.states[0].bindings["donor_site"], "False");
  EXPECT_EQ(answers.states[0].bindings["donor_code"], "self.use_bias");
  EXPECT_EQ(answers.states[0].bindings["donor_line"], "3");
}

TEST(DonorEditTest, LinesUpTheArgumentsOfASiblingCall) {
  // Another class's `apply` with other arguments around it: compared argument by argument,
  // `False` stands where the sibling passes `self.use_bias`.
  const std::string code =
      "class A:\n"
      "    def forward(self, x, w):\n"
      "        return _Linear.apply(x, w if w is not None else self.w, self.bias, self.use_bias, self.eps)\n"
      "class B:\n"
      "    def forward(self, x):\n"
      "        return _NormLinear.apply(x, self.norm_w, self.fc_w, self.fc_bias, False, self.eps)\n";
  Answers answers = RunAt(FindLookupSpec("donor-edit")->run, {}, code, 6);
  ASSERT_TRUE(answers.status.ok()) << answers.status;
  bool found = false;
  for (MatchState& answer : answers.states) {
    found |= answer.bindings["donor_site"] == "False" && answer.bindings["donor_code"] == "self.use_bias";
  }
  EXPECT_TRUE(found);
}

TEST(DonorEditTest, AddsTheKeywordACopyPasses) {
  const std::string code =
      "def a(make):\n"
      "    return make(model=\"m\", top_p=0.9, seed=1)\n"
      "def b(make):\n"
      "    return make(model=\"m\", seed=1)\n";
  Answers answers = RunAt(FindLookupSpec("donor-edit")->run, {}, code, 4);
  ASSERT_TRUE(answers.status.ok()) << answers.status;
  ASSERT_EQ(answers.states.size(), 1u);
  EXPECT_EQ(answers.states[0].bindings["donor_site"], "model=\"m\"");
  EXPECT_EQ(answers.states[0].bindings["donor_code"], "model=\"m\", top_p=0.9");
}

TEST(DonorEditTest, DropsANameTheCopiesDoNotDelete) {
  const std::string code =
      "def a(ctx, infos, act):\n"
      "    del infos\n"
      "def b(ctx, infos, act):\n"
      "    del infos, act\n";
  Answers answers = RunAt(FindLookupSpec("donor-edit")->run, {}, code, 4);
  ASSERT_TRUE(answers.status.ok()) << answers.status;
  ASSERT_EQ(answers.states.size(), 1u);
  EXPECT_EQ(answers.states[0].bindings["donor_site"], "infos, act");
  EXPECT_EQ(answers.states[0].bindings["donor_code"], "infos");
}

TEST(DonorEditTest, OffersAtMostThreeNearestFirst) {
  const std::string code =
      "def f(t):\n"
      "    t.send(1, 2, 3)\n"
      "    t.send(9, 9, 9, 9)\n"
      "    t.send(0, 2, 3)\n"
      "    t.send(4, 2, 3)\n"
      "    t.send(1, 2, 7)\n"
      "    t.send(1, 5, 3)\n";
  Answers answers = RunAt(FindLookupSpec("donor-edit")->run, {}, code, 2);
  ASSERT_TRUE(answers.status.ok()) << answers.status;
  ASSERT_EQ(answers.states.size(), 3u);
  // The copies one token off, nearest line first; the far copy is never offered.
  EXPECT_EQ(answers.states[0].bindings["donor_code"], "0");
  EXPECT_EQ(answers.states[1].bindings["donor_code"], "4");
  EXPECT_EQ(answers.states[2].bindings["donor_code"], "7");
}

TEST(DonorEditTest, NoCopyWithANameUnboundAtTheSite) {
  const std::string code =
      "def a(batch, scale):\n"
      "    return batch.to(scale)\n"
      "def b(batch):\n"
      "    return batch.to(None)\n";
  Answers answers = RunAt(FindLookupSpec("donor-edit")->run, {}, code, 4);
  EXPECT_TRUE(absl::IsNotFound(answers.status));
}

TEST(DonorEditTest, NoDonorOfAnotherCallee) {
  const std::string code =
      "def f(t, u):\n"
      "    t.send(1, 2)\n"
      "    u.recv(1, 3)\n";
  EXPECT_TRUE(absl::IsNotFound(RunAt(FindLookupSpec("donor-edit")->run, {}, code, 2).status));
}

TEST(DonorInsertTest, AddsTheStatementTheCopyHasAfterIt) {
  const std::string code =
      "def run(self, job):\n"
      "    try:\n"
      "        out = job()\n"
      "        self.log.write(out)\n"
      "        self.pool.teardown()\n"
      "        return out\n"
      "    except RuntimeError:\n"
      "        self.log.write(None)\n"
      "        return None\n";
  Answers answers = RunAt(FindLookupSpec("donor-insert")->run, {{"side", "after"}}, code, 8);
  ASSERT_TRUE(answers.status.ok()) << answers.status;
  ASSERT_EQ(answers.states.size(), 1u);
  EXPECT_EQ(answers.states[0].bindings["donor_statement"], "        self.pool.teardown()");
  EXPECT_EQ(answers.states[0].bindings["donor_line"], "5");
  // Before it, the copy has `out = job()` where the site has nothing: both at the block's
  // start is required, and the copy is not.
  EXPECT_TRUE(absl::IsNotFound(RunAt(FindLookupSpec("donor-insert")->run, {{"side", "before"}}, code, 8).status));
}

TEST(DonorInsertTest, NothingWhenTheNextStatementsDiffer) {
  const std::string code =
      "def a(self, x):\n"
      "    self.log.write(x)\n"
      "    self.pool.teardown()\n"
      "    return x\n"
      "def b(self, x):\n"
      "    self.log.write(x)\n"
      "    self.reset(x, 1, 2, 3)\n";
  EXPECT_TRUE(absl::IsNotFound(RunAt(FindLookupSpec("donor-insert")->run, {{"side", "after"}}, code, 6).status));
}

TEST(DonorInsertTest, RejectsAnUnknownSide) {
  const std::string code = "x = 1\n";
  EXPECT_TRUE(absl::IsNotFound(RunAt(FindLookupSpec("donor-insert")->run, {{"side", "middle"}}, code, 1).status));
}

}  // namespace
}  // namespace smallfix
