// The runtime-facts cases (tests/data/facts/README.md): every template of templates/ at each
// case's site, with the failing run's facts and without, as repair generates candidates.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include "engine/base/read_file.h"
#include "engine/facts/runtime_facts.h"
#include "engine/index/repo_index.h"
#include "engine/patterns/catalogue.h"
#include "engine/patterns/lookups/lookup.h"
#include "engine/patterns/match.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

const std::string kCases = std::string(SMALLFIX_SOURCE_DIR) + "/tests/data/facts";

// The code of every candidate the catalogue makes at the case's site, each with the template
// that made it.
std::map<std::string, std::string> CandidateTexts(const Catalogue& catalogue,
                                                  const YAML::Node& c,
                                                  const RuntimeFacts* facts) {
  const std::string file = c["file"].as<std::string>();
  absl::StatusOr<Document> document = Document::Parse(file, c["before"].as<std::string>());
  EXPECT_TRUE(document.ok()) << document.status();
  if (!document.ok()) return {};
  const RepoIndex index = RepoIndex::FromDocuments({*document});
  MatchContext context;
  context.index = &index;
  context.history = catalogue.history ? &*catalogue.history : nullptr;
  context.runtime = facts;
  const Symptom symptom = Symptom::FromText(c["symptom"].as<std::string>());
  std::map<std::string, std::string> texts;
  for (const Template& t : catalogue.templates) {
    for (const Candidate& candidate :
         MatchTemplate(t, *document, c["line"].as<int>(), symptom, context)) {
      for (const FileChange& change : candidate.changes) texts.emplace(change.after, t.id);
    }
  }
  return texts;
}

TEST(FactsCasesTest, FactsDecideWhetherTheFixIsACandidate) {
  absl::StatusOr<Catalogue> catalogue = Catalogue::Load();
  ASSERT_TRUE(catalogue.ok()) << catalogue.status();
  int cases = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kCases)) {
    if (entry.path().extension() != ".yaml") continue;
    ++cases;
    SCOPED_TRACE(entry.path().filename().string());
    const YAML::Node c = YAML::LoadFile(entry.path().string());
    absl::StatusOr<RuntimeFacts> facts = ParseRuntimeFacts(c["facts"].as<std::string>());
    ASSERT_TRUE(facts.ok()) << facts.status();
    const std::map<std::string, std::string> with = CandidateTexts(*catalogue, c, &*facts);
    const std::map<std::string, std::string> without = CandidateTexts(*catalogue, c, nullptr);
    const std::string expect = c["expect"].as<std::string>();
    if (expect == "facts-only") {
      const std::string fixed = c["fixed"].as<std::string>();
      EXPECT_TRUE(with.contains(fixed)) << "the fix is no candidate with the facts";
      EXPECT_FALSE(without.contains(fixed))
          << "the fix is a candidate without the facts too, from " << without.at(fixed);
    } else {
      ASSERT_EQ(expect, "not-offered");
      const std::string wrong = c["wrong"].as<std::string>();
      EXPECT_FALSE(with.contains(wrong)) << "offered by " << with.at(wrong);
    }
  }
  EXPECT_GE(cases, 8);
}

// Between a type-only match and a template written for the message: on the 47-bug benchmark a
// bump to a message match put synthesized guards before guard.zero-division-return (rank 1 -> 5).
TEST(FactsCasesTest, ACandidateTheFactsConfirmedRanksBetweenTypeAndMessage) {
  absl::StatusOr<Catalogue> catalogue = Catalogue::Load();
  ASSERT_TRUE(catalogue.ok()) << catalogue.status();
  const YAML::Node c = YAML::LoadFile(kCases + "/meta_param_cpu.yaml");
  absl::StatusOr<RuntimeFacts> facts = ParseRuntimeFacts(c["facts"].as<std::string>());
  ASSERT_TRUE(facts.ok()) << facts.status();
  absl::StatusOr<Document> document =
      Document::Parse(c["file"].as<std::string>(), c["before"].as<std::string>());
  ASSERT_TRUE(document.ok());
  MatchContext context;
  context.runtime = &*facts;
  auto t = std::find_if(catalogue->templates.begin(), catalogue->templates.end(),
                        [](const Template& t) { return t.id == "guard.synthesized-continue"; });
  ASSERT_NE(t, catalogue->templates.end());
  // The template names only the exception's type (0.8 without facts).
  const std::vector<Candidate> candidates =
      MatchTemplate(*t, *document, c["line"].as<int>(),
                    Symptom::FromText(c["symptom"].as<std::string>()), context);
  ASSERT_FALSE(candidates.empty());
  EXPECT_EQ(candidates.front().symptom_score, 0.9);
  EXPECT_EQ(candidates.front().bindings.at("fact"),
            "`p` was on meta at export/state.py:4 in the failing run and was not on meta in 2 "
            "passing tests");
}

// A repair whose facts come after generation matches these templates again: each must be known
// by its look-ups, and each shows in an example what it does with facts.
TEST(FactsCasesTest, TheTemplatesThatReadFactsAreKnownByTheirLookUps) {
  absl::StatusOr<Catalogue> catalogue = Catalogue::Load();
  ASSERT_TRUE(catalogue.ok()) << catalogue.status();
  std::set<std::string> reading;
  for (const Template& t : catalogue->templates) {
    if (!ReadsRuntimeFacts(t)) continue;
    reading.insert(t.id);
    EXPECT_TRUE(std::any_of(t.examples.begin(), t.examples.end(),
                            [](const Template::Example& e) { return e.facts && e.after; }))
        << t.id << " has no example that applies with facts";
  }
  EXPECT_EQ(reading, (std::set<std::string>{
                         "compat.installed-rename-gate", "compat.real-rename-attribute",
                         "guard.runtime-none-continue", "guard.runtime-none-skip",
                         "guard.synthesized-and", "guard.synthesized-continue", "guard.synthesized-return",
                         "guard.synthesized-return-at-entry", "guard.synthesized-wrap",
                         "param.optional-mutable-default", "param.real-add-missing-argument",
                         "param.real-rename-keyword"}));
}

}  // namespace
}  // namespace smallfix
