// The loader's checks of a template's `scan:` stanza: each mistake is an error naming the
// file, the line and what is wrong.
#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "engine/patterns/template_loader.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

class ScanStanzaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("smallfix_scan_stanza_" + std::to_string(::getpid()) + "_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A valid template (its symptom gives {attr}) followed by `scan`.
  absl::StatusOr<Template> Load(const std::string& scan) {
    path_ = (dir_ / "t.yaml").string();
    std::ofstream(path_) << R"y(id: guard.test
family: guard
summary: test template
symptoms:
  - type: AttributeError
    message: "has no attribute '(?P<attr>\\w+)'"
query: |
  (attribute object: (_) @value attribute: (identifier) @name) @access
where:
  - capture: name
    equals: "{attr}"
rewrite:
  - action: replace
    target: access
    with: "getattr({value}, \"{attr}\", None)"
examples:
  - name: applies
    symptom: "AttributeError: 'X' object has no attribute 'y'"
    line: 1
    before: "a.y\n"
    after: "getattr(a, \"y\", None)\n"
  - name: does not apply
    line: 1
    before: "b = 1\n"
    after: null
)y" << scan;
    return LoadTemplate(path_);
  }

  static std::string Examples() {
    return R"y(  examples:
    - name: found
      code: "a.y\n"
      lines: [1]
    - name: not found
      code: "b = 1\n"
      lines: []
)y";
  }

  std::string Error(const absl::StatusOr<Template>& t) {
    EXPECT_FALSE(t.ok());
    const std::string message(t.status().message());
    EXPECT_THAT(message, HasSubstr(path_ + ":"));
    return message;
  }

  fs::path dir_;
  std::string path_;
};

TEST_F(ScanStanzaTest, LoadsAValidStanza) {
  absl::StatusOr<Template> t = Load("scan:\n  message: an attribute\n  filter: '\\.y\\b'\n  bind:\n    attr: \"{name}\"\n" + Examples());
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_TRUE(t->scan.has_value());
  EXPECT_EQ(t->scan->site, "value");  // the query's first capture
  EXPECT_EQ(t->scan->examples.size(), 2u);
  EXPECT_EQ(t->scan->examples[0].lines, std::vector<int>{1});
}

TEST_F(ScanStanzaTest, NeedsAMessageAndAFilter) {
  EXPECT_THAT(Error(Load("scan:\n  filter: x\n  bind:\n    attr: \"{name}\"\n" + Examples())),
              HasSubstr("scan needs 'message'"));
  EXPECT_THAT(Error(Load("scan:\n  message: m\n  bind:\n    attr: \"{name}\"\n" + Examples())),
              HasSubstr("scan needs 'filter'"));
}

TEST_F(ScanStanzaTest, ABadFilterRegexIsAnError) {
  EXPECT_THAT(Error(Load("scan:\n  message: m\n  filter: 'a('\n  bind:\n    attr: \"{name}\"\n" + Examples())),
              HasSubstr("scan filter: bad regex"));
  EXPECT_THAT(Error(Load("scan:\n  message: m\n  filter: '{removed}'\n  bind:\n    attr: \"{name}\"\n" + Examples())),
              HasSubstr("unknown placeholder {removed}"));
}

TEST_F(ScanStanzaTest, FilterOverIsFileOrDefSignatures) {
  const std::string head = "scan:\n  message: m\n  filter: x\n  bind:\n    attr: \"{name}\"\n";
  absl::StatusOr<Template> t = Load(head + "  filter-over: def-signatures\n" + Examples());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->scan->filter_over, "def-signatures");
  EXPECT_THAT(Error(Load(head + "  filter-over: lines\n" + Examples())),
              HasSubstr("filter-over must be file or def-signatures"));
}

TEST_F(ScanStanzaTest, ASymptomPlaceholderMustBeBound) {
  EXPECT_THAT(Error(Load("scan:\n  message: m\n  filter: x\n" + Examples())), HasSubstr("scan must bind {attr}"));
  EXPECT_THAT(Error(Load("scan:\n  message: m\n  filter: x\n  bind:\n    attr: \"{nothing}\"\n" + Examples())),
              HasSubstr("{nothing} is not a capture"));
}

TEST_F(ScanStanzaTest, TheSiteAndTheQueryMustFitTheTemplate) {
  EXPECT_THAT(Error(Load("scan:\n  message: m\n  filter: x\n  site: nowhere\n  bind:\n    attr: \"{name}\"\n" + Examples())),
              HasSubstr("scan site 'nowhere' is not a capture"));
  EXPECT_THAT(Error(Load("scan:\n  message: m\n  filter: x\n  query: '(attribute object: (_) @value) @access'\n"
                         "  bind:\n    attr: \"{value}\"\n" + Examples())),
              HasSubstr("scan query lacks @name"));
  EXPECT_THAT(Error(Load("scan:\n  message: m\n  filter: x\n  query: '(attribute objekt: (_) @value)'\n" + Examples())),
              HasSubstr("query:"));
}

TEST_F(ScanStanzaTest, NeedsAPositiveAndANegativeExample) {
  const std::string head = "scan:\n  message: m\n  filter: x\n  bind:\n    attr: \"{name}\"\n";
  EXPECT_THAT(Error(Load(head + "  examples:\n    - name: found\n      code: \"a.y\\n\"\n      lines: [1]\n")),
              HasSubstr("one without (lines: [])"));
  EXPECT_THAT(Error(Load(head + "  examples:\n    - name: found\n      code: \"a.y\\n\"\n")),
              HasSubstr("a scan example needs 'lines'"));
  EXPECT_THAT(Error(Load(head + "  colour: blue\n" + Examples())), HasSubstr("unknown key 'colour' in scan"));
}

}  // namespace
}  // namespace smallfix
