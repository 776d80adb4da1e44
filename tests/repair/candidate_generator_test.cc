#include "engine/repair/candidate_generator.h"

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>
#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

// A site at a file's line, as --site gives it (score 1).
Site At(const std::string& file, int line) {
  Site site;
  site.file = file;
  site.line = line;
  site.score = 1.0;
  return site;
}

namespace fs = std::filesystem;

// A small repo on disk and the source tree's templates.
class CandidateGeneratorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("smallfix_generator_" + std::to_string(::getpid()) + "_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "pkg");
    fs::create_directories(root_ / "tests");
    Write("pkg/io.py",
          "def load_state(path, cache):\n"
          "    if path in cache:\n"
          "        return cache[path]\n");
    Write("pkg/train.py",
          "from pkg.io import load_state\n"
          "\n"
          "def resume(path, cache, tp_rank, tp_size):\n"
          "    state = load_state(path, cache)\n"
          "    offset = state.step * tp_size\n"
          "    return offset\n");
    absl::StatusOr<Catalogue> catalogue = Catalogue::Load(SMALLFIX_SOURCE_DIR "/templates");
    ASSERT_TRUE(catalogue.ok()) << catalogue.status();
    catalogue_ = *std::move(catalogue);
    absl::StatusOr<RepoIndex> index = RepoIndex::Build(root_.string());
    ASSERT_TRUE(index.ok()) << index.status();
    index_ = std::make_unique<RepoIndex>(*std::move(index));
  }
  void TearDown() override { fs::remove_all(root_); }

  void Write(const std::string& path, const std::string& text) { std::ofstream(root_ / path) << text; }

  std::vector<ScoredCandidate> Generate(const std::string& symptom, GenerateOptions options = {}) {
    absl::StatusOr<std::vector<ScoredCandidate>> out = GenerateCandidates(
        root_.string(), {At("pkg/train.py", 5)}, Symptom::FromText(symptom), catalogue_, index_.get(),
        options);
    EXPECT_TRUE(out.ok()) << out.status();
    return out.ok() ? *std::move(out) : std::vector<ScoredCandidate>{};
  }

  static std::vector<std::string> Templates(const std::vector<ScoredCandidate>& candidates) {
    std::vector<std::string> ids;
    for (const ScoredCandidate& c : candidates) ids.push_back(c.candidate.template_id);
    return ids;
  }

  fs::path root_;
  Catalogue catalogue_;
  std::unique_ptr<RepoIndex> index_;
};

TEST_F(CandidateGeneratorTest, WithoutASymptomEveryTemplateThatFitsIsTried) {
  const std::vector<ScoredCandidate> candidates = Generate("");
  // The wrong name (tp_size for tp_rank) is offered though no symptom names it (by the nearest
  // name, or by unused-name, which writes the same code: tp_rank is a parameter never read).
  EXPECT_THAT(Templates(candidates),
              ::testing::Contains(::testing::AnyOf("generic.nearest-name", "generic.unused-name")));
  bool rank_for_size = false;
  for (const ScoredCandidate& c : candidates) {
    EXPECT_EQ(c.candidate.symptom_score, 0) << c.candidate.template_id;
    rank_for_size |= c.diff.find("+    offset = state.step * tp_rank") != std::string::npos;
  }
  EXPECT_TRUE(rank_for_size);
  // Only the given site: no None to follow.
  for (const ScoredCandidate& c : candidates) EXPECT_EQ(c.candidate.line, 5);
}

TEST_F(CandidateGeneratorTest, MatchingSymptomsFirstAndTheNoneIsFollowedToItsCallee) {
  const std::vector<ScoredCandidate> candidates =
      Generate("AttributeError: 'NoneType' object has no attribute 'step'");
  ASSERT_FALSE(candidates.empty());
  // At the failing site, templates that answer the symptom come before generic ones.
  bool generic_seen = false;
  for (const ScoredCandidate& c : candidates) {
    if (c.candidate.file != "pkg/train.py" || c.candidate.line != 5) continue;
    if (c.candidate.symptom_score == 0) generic_seen = true;
    EXPECT_FALSE(generic_seen && c.candidate.symptom_score > 0) << c.candidate.template_id << " after a generic one";
  }
  // load_state can run off its end: the explicit final return is offered in pkg/io.py.
  bool in_callee = false;
  for (const ScoredCandidate& c : candidates) {
    if (c.candidate.file == "pkg/io.py") {
      in_callee = true;
      EXPECT_LT(c.site_score, 1.0);
    }
  }
  EXPECT_TRUE(in_callee);
}

TEST_F(CandidateGeneratorTest, ASiteAnswersTheExceptionRaisedThroughIt) {
  Write("pkg/dump.py",
        "def dumpable(params):\n"
        "    for key, value in params.items():\n"
        "        try:\n"
        "            yaml.dump(value)\n"
        "        except TypeError:\n"
        "            warn(key)\n");
  // The test failed on pytest's "DID NOT WARN"; the site's own frame raised a ValueError.
  Site site = At("pkg/dump.py", 4);
  site.symptom = "ValueError: dictionary update sequence element #0 has length 1";
  auto widened = [&](const Site& at) {
    absl::StatusOr<std::vector<ScoredCandidate>> out = GenerateCandidates(
        root_.string(), {at}, Symptom::FromText("Failed: DID NOT WARN."), catalogue_,
        index_.get(), GenerateOptions{.max_per_site = 0});
    EXPECT_TRUE(out.ok()) << out.status();
    for (const ScoredCandidate& c : out.ok() ? *out : std::vector<ScoredCandidate>{}) {
      if (c.diff.find("+        except (TypeError, ValueError):") != std::string::npos) return true;
    }
    return false;
  };
  EXPECT_TRUE(widened(site));
  // Without the site's own exception only the run's is known: nothing to widen the handler by.
  site.symptom.clear();
  EXPECT_FALSE(widened(site));
}

TEST_F(CandidateGeneratorTest, ARaiseUnderAnIfHasItsConditionForASite) {
  Write("pkg/check.py",
        "def check(strategy, accelerator):\n"
        "    if (\n"
        "        isinstance(strategy, FSDPStrategy)\n"
        "    ) and accelerator != \"gpu\":\n"
        "        raise ValueError(\"FSDP needs a GPU\")\n");
  absl::StatusOr<std::vector<ScoredCandidate>> out =
      GenerateCandidates(root_.string(), {At("pkg/check.py", 5)},
                         Symptom::FromText("ValueError: FSDP needs a GPU"), catalogue_,
                         index_.get(), GenerateOptions{.max_per_site = 0});
  ASSERT_TRUE(out.ok()) << out.status();
  // The check chose to raise: its condition, whose header spans three lines, is edited too.
  bool exact_type = false;
  for (const ScoredCandidate& c : *out) {
    if (c.candidate.line == 2 && c.site_score < 1.0 &&
        c.diff.find("+        type(strategy) is FSDPStrategy") != std::string::npos)
      exact_type = true;
  }
  EXPECT_TRUE(exact_type);
}

TEST_F(CandidateGeneratorTest, CapsCandidatesPerSiteAndDropsDuplicates) {
  const std::vector<ScoredCandidate> all = Generate("", GenerateOptions{.max_per_site = 0});
  const std::vector<ScoredCandidate> capped = Generate("", GenerateOptions{.max_per_site = 2});
  ASSERT_GT(all.size(), 2u);
  EXPECT_EQ(capped.size(), 2u);
  std::set<std::string> diffs;
  for (const ScoredCandidate& c : all) EXPECT_TRUE(diffs.insert(c.diff).second) << c.diff;
}

TEST_F(CandidateGeneratorTest, AGenericTemplateSharesItsPriorAmongItsCandidatesAtASite) {
  Write("pkg/merge.py",
        "def merge(first, second, third):\n"
        "    return combine(first, second, third)\n");
  absl::StatusOr<std::vector<ScoredCandidate>> out =
      GenerateCandidates(root_.string(), {At("pkg/merge.py", 2)}, Symptom::FromText(""), catalogue_,
                         index_.get(), GenerateOptions{.max_per_site = 0});
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<ScoredCandidate>& candidates = *out;
  std::map<std::string, double> template_prior;
  for (const Template& t : catalogue_.templates) template_prior[t.id] = t.unmatched_prior.value_or(t.prior);
  std::map<std::string, std::vector<double>> priors;  // per template, in generation order
  for (const ScoredCandidate& c : candidates) priors[c.candidate.template_id].push_back(c.candidate.prior);
  bool several = false;
  for (auto& [id, list] : priors) {
    std::sort(list.rbegin(), list.rend());
    for (size_t k = 0; k < list.size(); ++k) {
      EXPECT_DOUBLE_EQ(list[k], template_prior[id] / (1.0 + k)) << id << " candidate " << k;
    }
    several |= list.size() > 1;
  }
  EXPECT_TRUE(several) << "no template gave two candidates at the site";
}

TEST_F(CandidateGeneratorTest, ATestFileGetsOnlyTemplatesThatAnswerTheSymptom) {
  Write("tests/test_train.py",
        "def test_offset(state, tp_rank, tp_size):\n"
        "    assert state.step * tp_size == tp_rank\n");
  for (const std::string& symptom : {std::string(""), std::string("AssertionError: assert 4 == 1")}) {
    absl::StatusOr<std::vector<ScoredCandidate>> out = GenerateCandidates(
        root_.string(), {At("tests/test_train.py", 2)}, Symptom::FromText(symptom), catalogue_,
        index_.get());
    ASSERT_TRUE(out.ok()) << out.status();
    for (const ScoredCandidate& c : *out) {
      EXPECT_GT(c.candidate.symptom_score, 0) << c.candidate.template_id;
      EXPECT_NE(c.candidate.family, "generic") << c.candidate.template_id;
    }
  }
}

// Generic templates come first in the catalogue and often write the same code as a template
// that answers the symptom; the symptom-matched twin must be the one kept, with its rank.
TEST_F(CandidateGeneratorTest, ASymptomMatchedCandidateIsNotDroppedForItsGenericTwin) {
  Write("pkg/step.py",
        "def advance(state, n):\n"
        "    total = state.step + n\n"
        "    return total\n");
  const std::string symptom = "AttributeError: 'NoneType' object has no attribute 'step'";
  const Site site = At("pkg/step.py", 2);
  Catalogue answering = catalogue_;
  std::erase_if(answering.templates, [](const Template& t) { return t.symptoms.empty(); });
  absl::StatusOr<std::vector<ScoredCandidate>> matched =
      GenerateCandidates(root_.string(), {site}, Symptom::FromText(symptom), answering,
                         index_.get(), GenerateOptions{.max_per_site = 0});
  ASSERT_TRUE(matched.ok()) << matched.status();
  absl::StatusOr<std::vector<ScoredCandidate>> generated =
      GenerateCandidates(root_.string(), {site}, Symptom::FromText(symptom), catalogue_, index_.get(),
                         GenerateOptions{.max_per_site = 0});
  ASSERT_TRUE(generated.ok()) << generated.status();
  const std::vector<ScoredCandidate>& all = *generated;
  std::map<std::string, const ScoredCandidate*> by_diff;
  for (const ScoredCandidate& c : all) by_diff[c.diff] = &c;
  int checked = 0;
  for (const ScoredCandidate& c : *matched) {
    if (c.candidate.symptom_score <= 0) continue;
    ASSERT_TRUE(by_diff.count(c.diff)) << c.candidate.template_id << " lost";
    EXPECT_GT(by_diff[c.diff]->candidate.symptom_score, 0) << c.candidate.template_id << " replaced by "
                                                           << by_diff[c.diff]->candidate.template_id;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST_F(CandidateGeneratorTest, SitesOfOneFixAlsoGetCandidatesThatEditSeveral) {
  // Lines 4 and 5 of pkg/train.py, as one fix's lines: a statement move, combinations, and
  // each candidate's count of the sites it edits.
  const std::vector<Site> sites = {At("pkg/train.py", 4),
                                   At("pkg/train.py", 5)};
  GenerateOptions options;
  options.one_fix = true;
  absl::StatusOr<std::vector<ScoredCandidate>> joint =
      GenerateCandidates(root_.string(), sites, Symptom::FromText(""), catalogue_, index_.get(), options);
  ASSERT_TRUE(joint.ok()) << joint.status();
  std::set<std::string> multi;
  int counted = 0;
  for (const ScoredCandidate& scored : *joint) {
    counted += scored.sites_covered > 0;
    if (scored.candidate.template_id.starts_with("multi.")) {
      multi.insert(scored.candidate.template_id);
      EXPECT_EQ(scored.sites_covered, 2) << scored.diff;
    }
  }
  EXPECT_GT(counted, static_cast<int>(multi.size()));  // the sites' own candidates are counted too
  EXPECT_TRUE(multi.count("multi.move-statement"));
  EXPECT_TRUE(multi.count("multi.combined"));

  // Without one_fix the sites are alternatives: nothing edits both.
  absl::StatusOr<std::vector<ScoredCandidate>> apart =
      GenerateCandidates(root_.string(), sites, Symptom::FromText(""), catalogue_, index_.get());
  ASSERT_TRUE(apart.ok()) << apart.status();
  for (const ScoredCandidate& scored : *apart) {
    EXPECT_FALSE(scored.candidate.template_id.starts_with("multi.")) << scored.candidate.template_id;
    EXPECT_EQ(scored.sites_covered, 0);
  }
}

// A site is also the gap before its line: a statement inserted after the previous statement
// is a candidate there, and nothing that changes the previous statement itself is.
TEST_F(CandidateGeneratorTest, TheGapBeforeTheSiteTakesWhatIsInsertedAfterThePreviousStatement) {
  Write("pkg/shard.py",
        "class Shards:\n"
        "    def __init__(self, partitions, rank):\n"
        "        self.local = partitions.get(rank)\n"
        "        self.buffers = {}\n");
  absl::StatusOr<std::vector<ScoredCandidate>> out =
      GenerateCandidates(root_.string(), {At("pkg/shard.py", 4)},
                         Symptom::FromText("TypeError: 'NoneType' object is not iterable"), catalogue_,
                         index_.get(), GenerateOptions{.max_per_site = 0});
  ASSERT_TRUE(out.ok()) << out.status();
  bool inserted = false;
  for (const ScoredCandidate& c : *out) {
    EXPECT_EQ(c.candidate.line, 4) << c.candidate.template_id;
    // Line 3 is never changed: only the gap before line 4 and line 4 itself.
    EXPECT_THAT(c.diff, ::testing::Not(::testing::HasSubstr("-        self.local = partitions.get(rank)")))
        << c.candidate.template_id;
    if (c.candidate.template_id == "guard.none-empty-after-assignment") {
      inserted = true;
      EXPECT_THAT(c.diff, ::testing::HasSubstr("+        if self.local is None:\n+            self.local = []\n"));
    }
  }
  EXPECT_TRUE(inserted);
  // The first statement of a body has nothing before it in its block: no gap there.
  absl::StatusOr<std::vector<ScoredCandidate>> first =
      GenerateCandidates(root_.string(), {At("pkg/shard.py", 3)},
                         Symptom::FromText("TypeError: 'NoneType' object is not iterable"), catalogue_,
                         index_.get(), GenerateOptions{.max_per_site = 0});
  ASSERT_TRUE(first.ok()) << first.status();
  for (const ScoredCandidate& c : *first) EXPECT_EQ(c.candidate.line, 3);
}

TEST_F(CandidateGeneratorTest, AMoveAcrossBlankLinesEditsBothSitesOfOneFix) {
  // Moving `b = g(a)` before `h(b)`: read as one changed region, the result ends above line 6
  // (the blank line before it is common text); per edit, the insertion is right before it.
  Write("pkg/move.py",
        "def f(a):\n"
        "    b = g(a)\n"
        "\n"
        "    c = 1\n"
        "\n"
        "    h(b)\n");
  GenerateOptions options;
  options.one_fix = true;
  absl::StatusOr<std::vector<ScoredCandidate>> out =
      GenerateCandidates(root_.string(), {At("pkg/move.py", 2), At("pkg/move.py", 6)},
                         Symptom::FromText(""), catalogue_, index_.get(), options);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::string moved =
      "def f(a):\n"
      "\n"
      "    c = 1\n"
      "\n"
      "    b = g(a)\n"
      "    h(b)\n";
  const auto it = std::find_if(out->begin(), out->end(), [&](const ScoredCandidate& c) {
    return c.candidate.template_id == "multi.move-statement" && c.candidate.changes.front().after == moved;
  });
  ASSERT_NE(it, out->end());
  EXPECT_EQ(it->sites_covered, 2);
}

// A deepcopy that fails on a tensor still holding its graph: the fix is where the tensor was
// put into the container (an element write), so that line is a cause site; for a None the
// element writes are not followed (the container itself was not None).
TEST_F(CandidateGeneratorTest, ATensorThatKeptItsGraphIsFollowedToWhereItWasStored) {
  const std::string text =
      "import copy\n"
      "\n"
      "class Tracker:\n"
      "    def __init__(self):\n"
      "        self.totals = {}\n"
      "\n"
      "    def add(self, name, loss):\n"
      "        self.totals[name] = self.totals.get(name, 0) + loss\n"
      "\n"
      "    def state_dict(self):\n"
      "        return copy.deepcopy({'totals': self.totals})\n";
  absl::StatusOr<Document> document = Document::Parse("pkg/tracker.py", text);
  ASSERT_TRUE(document.ok()) << document.status();
  auto load = [&](const std::string&) -> absl::StatusOr<Document> { return *document; };
  auto lines = [](const std::vector<Site>& sites) {
    std::vector<int> out;
    for (const Site& site : sites) out.push_back(site.line);
    return out;
  };
  const Site site = At("pkg/tracker.py", 11);
  const std::vector<Site> graph = CauseSites(
      *document, site,
      Symptom::FromText("RuntimeError: Only Tensors created explicitly by the user (graph leaves) support the "
                             "deepcopy protocol at the moment"),
      index_.get(), load, 0.7);
  EXPECT_THAT(lines(graph), ::testing::ElementsAre(8, 5));
  ASSERT_FALSE(graph.empty());
  EXPECT_DOUBLE_EQ(graph[0].score, 0.7);
  const std::vector<Site> none = CauseSites(
      *document, site, Symptom::FromText("AttributeError: 'NoneType' object has no attribute 'totals'"),
      index_.get(), load, 0.7);
  EXPECT_THAT(lines(none), ::testing::Not(::testing::Contains(8)));
  EXPECT_TRUE(CauseSites(*document, site, Symptom::FromText("KeyError: 'x'"), index_.get(), load, 0.7).empty());
}

}  // namespace
}  // namespace smallfix
