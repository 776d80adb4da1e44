#include "engine/patterns/template_loader.h"

#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "engine/patterns/lookups/lookup.h"
#include "engine/facts/runtime_facts.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// A template file with one broken part; everything else is valid.
class TemplateLoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("smallfix_loader_" + std::to_string(::getpid()) + "_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "guard");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / "guard" / name;
    std::ofstream(path) << text;
    return path.string();
  }

  static std::string Valid(const std::string& query = "(attribute object: (_) @value) @attr",
                           const std::string& code = "if {value} is None:\n          return") {
    return R"y(id: guard.test
family: guard
summary: test template
symptoms:
  - type: AttributeError
    message: "has no attribute '(?P<attr_name>\\w+)'"
query: |
  )y" + query + R"y(
rewrite:
  - action: insert-before
    code: |
      )y" + code + R"y(
examples:
  - name: applies
    symptom: "AttributeError: 'NoneType' object has no attribute 'x'"
    line: 1
    before: "a.x\n"
    after: "a.x\n"
  - name: does not apply
    line: 1
    before: "b = 1\n"
    after: null
)y";
  }

  fs::path dir_;
};

TEST_F(TemplateLoaderTest, LoadsAValidTemplate) {
  absl::StatusOr<Template> t = LoadTemplate(Write("ok.yaml", Valid()));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->id, "guard.test");
  EXPECT_EQ(t->examples.size(), 2u);
  EXPECT_FALSE(t->examples[1].after.has_value());
  EXPECT_TRUE(t->query.has_value());
}

TEST_F(TemplateLoaderTest, WeakIsReadAndChecked) {
  absl::StatusOr<Template> t = LoadTemplate(Write("weak.yaml", Valid() + "weak: true\n"));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->weak);
  EXPECT_FALSE(LoadTemplate(Write("plain.yaml", Valid()))->weak);

  absl::StatusOr<Template> bad = LoadTemplate(Write("bad.yaml", Valid() + "weak: often\n"));
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("weak must be true or false"));
}

TEST_F(TemplateLoaderTest, FixAllIsReadAndChecked) {
  absl::StatusOr<Template> t = LoadTemplate(Write("all.yaml", Valid() + "fix-all: true\n"));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->fix_all);
  EXPECT_FALSE(t->weak);
  EXPECT_FALSE(LoadTemplate(Write("plain.yaml", Valid()))->fix_all);

  absl::StatusOr<Template> bad = LoadTemplate(Write("bad.yaml", Valid() + "fix-all: [yes]\n"));
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("fix-all must be true or false"));
}

TEST_F(TemplateLoaderTest, UnmatchedPriorIsReadAndChecked) {
  absl::StatusOr<Template> t = LoadTemplate(Write("ok.yaml", Valid() + "unmatched-prior: 0.05\n"));
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_TRUE(t->unmatched_prior.has_value());
  EXPECT_DOUBLE_EQ(*t->unmatched_prior, 0.05);
  EXPECT_FALSE(LoadTemplate(Write("plain.yaml", Valid()))->unmatched_prior.has_value());

  absl::StatusOr<Template> zero = LoadTemplate(Write("zero.yaml", Valid() + "unmatched-prior: 0\n"));
  ASSERT_FALSE(zero.ok());
  EXPECT_THAT(std::string(zero.status().message()), HasSubstr("unmatched-prior must be in (0, 1]"));

  // A generic template (no symptoms) has one prior only.
  std::string generic = Valid() + "unmatched-prior: 0.1\n";
  generic.replace(generic.find("symptoms:"), generic.find("query:") - generic.find("symptoms:"), "");
  absl::StatusOr<Template> g = LoadTemplate(Write("generic.yaml", generic));
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(std::string(g.status().message()), HasSubstr("unmatched-prior is for a template with symptoms"));
}

TEST_F(TemplateLoaderTest, UnknownKeyNamesFileAndLine) {
  const std::string path = Write("bad.yaml", Valid() + "colour: blue\n");
  absl::StatusOr<Template> t = LoadTemplate(path);
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), HasSubstr(path + ":"));
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("unknown key 'colour'"));
}

TEST_F(TemplateLoaderTest, AnExamplesFactsAreReadAndChecked) {
  const std::string facts =
      "    facts: '{\"version\": 1, \"frames\": [{\"file\": \"example.py\", \"line\": 1, "
      "\"locals\": {}}]}'\n";
  absl::StatusOr<Template> t = LoadTemplate(Write("facts.yaml", Valid() + facts));
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_NE(t->examples[1].facts, nullptr);
  EXPECT_EQ(t->examples[1].facts->frames.size(), 1u);
  EXPECT_EQ(t->examples[0].facts, nullptr);
  const std::string path =
      Write("bad_facts.yaml", Valid() + "    facts: '{\"version\": 1, \"frames\": 3}'\n");
  t = LoadTemplate(path);
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), HasSubstr(path + ":"));
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("runtime facts: frames"));
}

TEST_F(TemplateLoaderTest, BadQueryIsAnErrorWithItsPosition) {
  absl::StatusOr<Template> t = LoadTemplate(Write("bad.yaml", Valid("(attribute objekt: (_) @value)")));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("unknown field"));
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("bad.yaml:8"));
}

TEST_F(TemplateLoaderTest, UnboundPlaceholderIsAnError) {
  absl::StatusOr<Template> t =
      LoadTemplate(Write("bad.yaml", Valid("(attribute object: (_) @value) @attr", "if {valu} is None:")));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("{valu}"));
}

TEST_F(TemplateLoaderTest, SymptomGroupsAndCapturesAreBound) {
  absl::StatusOr<Template> t = LoadTemplate(
      Write("ok.yaml", Valid("(attribute object: (_) @value) @attr", "if {value}.{attr_name} is None:")));
  EXPECT_TRUE(t.ok()) << t.status();
}

TEST_F(TemplateLoaderTest, AMatchesRegexBindsItsNamedGroupsButANotMatchesDoesNot) {
  std::string text = Valid("(attribute object: (_) @value) @attr", "if {head} is None:");
  const std::string where = "where:\n  - capture: value\n    matches: \"^(?P<head>\\\\w+)\"\nrewrite:";
  std::string bound = text;
  bound.replace(bound.find("rewrite:"), 8, where);
  absl::StatusOr<Template> t = LoadTemplate(Write("ok.yaml", bound));
  EXPECT_TRUE(t.ok()) << t.status();

  std::string negated = bound;
  negated.replace(negated.find("    matches:"), 12, "    not-matches:");
  t = LoadTemplate(Write("bad.yaml", negated));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("{head}"));
}

TEST_F(TemplateLoaderTest, NeedsANegativeExample) {
  std::string text = Valid();
  text.replace(text.find("after: null"), 11, "after: \"b = 1\\n\"");
  absl::StatusOr<Template> t = LoadTemplate(Write("bad.yaml", text));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("must not apply"));
}

TEST_F(TemplateLoaderTest, BrokenYamlAndDuplicateIds) {
  absl::StatusOr<Template> t = LoadTemplate(Write("bad.yaml", "id: [unclosed\n"));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("not valid YAML"));
  fs::remove(dir_ / "guard" / "bad.yaml");
  Write("a.yaml", Valid());
  Write("b.yaml", Valid());
  absl::StatusOr<std::vector<Template>> all = LoadTemplates(dir_.string());
  ASSERT_FALSE(all.ok());
  EXPECT_THAT(std::string(all.status().message()), HasSubstr("also used by"));
}

TEST_F(TemplateLoaderTest, UnknownActionAndMissingArgument) {
  std::string text = Valid();
  text.replace(text.find("insert-before"), 13, "insert-sideways");
  absl::StatusOr<Template> t = LoadTemplate(Write("bad.yaml", text));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("unknown action 'insert-sideways'"));
}

TEST_F(TemplateLoaderTest, UnknownSymptomClassListsTheKnownOnes) {
  std::string text = Valid();
  text.replace(text.find("  - type: AttributeError\n"), 25, "  - class: none-atribute\n");
  absl::StatusOr<Template> t = LoadTemplate(Write("bad.yaml", text));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("bad.yaml:5: unknown class 'none-atribute'; known: "));
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("none-attribute"));

  text = Valid();
  text.replace(text.find("  - type: AttributeError\n"), 25, "  - class: none-attribute\n");
  EXPECT_TRUE(LoadTemplate(Write("good.yaml", text)).ok());
}

TEST_F(TemplateLoaderTest, UnknownLookupListsTheKnownOnesAndGenericNeedsNoSymptom) {
  std::string text = Valid();
  text.replace(text.find("rewrite:"), 8, "context:\n  - lookup: nearest-nam\n    name: x\nrewrite:");
  absl::StatusOr<Template> t = LoadTemplate(Write("bad.yaml", text));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("unknown lookup 'nearest-nam'; known: callee, "));

  // A generic fix operator names no symptom; its look-ups bind what later parts use.
  text = Valid("(identifier) @name", "if {nearest} is None:\n          return");
  text.replace(text.find("symptoms:"), text.find("query:") - text.find("symptoms:"), "");
  text.replace(text.find("id: guard.test\nfamily: guard"), 28, "id: generic.test\nfamily: generic");
  text.replace(text.find("rewrite:"), 8, "context:\n  - lookup: nearest-name\n    name: \"{name}\"\nrewrite:");
  t = LoadTemplate(Write("generic.yaml", text));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->symptoms.empty());
  ASSERT_EQ(t->lookups.size(), 1u);
  EXPECT_STREQ(t->lookups[0].spec->name, "nearest-name");
}

}  // namespace
}  // namespace smallfix
