// The look-up and action tables are the one place the loader and the engine learn what a
// template may name: every kind is in its table once, under one name.
#include <set>

#include "engine/base/symptom_classes.h"
#include "engine/localize/symptom_rules.h"
#include "engine/patterns/lookups/lookup.h"
#include "engine/patterns/rewriter.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

TEST(RegistriesTest, EveryLookupHasOneRowAndFunction) {
  std::set<std::string> names;
  std::set<LookupBody*> functions;
  for (const LookupSpec& spec : LookupSpecs()) {
    EXPECT_TRUE(names.insert(spec.name).second) << spec.name;
    EXPECT_NE(spec.run, nullptr) << spec.name;
    EXPECT_TRUE(functions.insert(spec.run).second) << spec.name << " shares its function";
    EXPECT_NE(std::string(spec.summary), "") << spec.name;
    EXPECT_EQ(FindLookupSpec(spec.name), &spec);
  }
  EXPECT_EQ(FindLookupSpec("no-such-lookup"), nullptr);
}

TEST(RegistriesTest, EveryActionKindHasOneEntryAndFunction) {
  std::set<std::string> names;
  std::set<int> kinds;
  for (const ActionSpec& spec : ActionSpecs()) {
    EXPECT_TRUE(names.insert(spec.name).second) << spec.name;
    EXPECT_TRUE(kinds.insert(static_cast<int>(spec.kind)).second) << spec.name;
    EXPECT_NE(spec.apply, nullptr) << spec.name;
    EXPECT_EQ(FindActionSpec(spec.name), &spec);
    EXPECT_EQ(&SpecOf(spec.kind), &spec);
  }
  EXPECT_EQ(kinds.size(), static_cast<size_t>(ActionKind::kPlaceImport) + 1);
}

// Localization's rules may only give classes templates can name.
TEST(RegistriesTest, LocalizationRulesUseTheSymptomClassTable) {
  for (const SymptomRule& rule : kSymptomRules) {
    EXPECT_TRUE(IsSymptomClass(rule.symptom_class)) << rule.symptom_class;
  }
  EXPECT_TRUE(IsSymptomClass("other"));
  EXPECT_TRUE(IsSymptomClass("timeout-or-hang"));
  EXPECT_FALSE(IsSymptomClass("none-atribute"));
}

}  // namespace
}  // namespace smallfix
