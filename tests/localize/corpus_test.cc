// Runs Localize on every case of the localization corpus (tests/data/localize) and checks
// the symptom class, the exception type and the top-1 site (file, line, function).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "engine/localize/localizer.h"

namespace smallfix {
namespace {

const std::string kCorpus = std::string(SMALLFIX_SOURCE_DIR) + "/tests/data/localize";

struct Expected {
  std::map<std::string, std::string> values;  // case, kind, exception, class, file, line, ...
  const std::string& operator[](const std::string& key) { return values[key]; }
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// expected.yaml is a flat list of maps with scalar values; reading it needs no more than this.
// (The test links only smallfix_localize, which has no YAML dependency.)
std::string Unquote(std::string value) {
  if (value.size() >= 2 && value.front() == '\'' && value.back() == '\'') {
    value = value.substr(1, value.size() - 2);
    std::string out;
    for (size_t i = 0; i < value.size(); ++i) {
      out.push_back(value[i]);
      if (value[i] == '\'' && i + 1 < value.size() && value[i + 1] == '\'') ++i;
    }
    return out;
  }
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    return value.substr(1, value.size() - 2);
  }
  return value;
}

std::vector<Expected> ReadExpected() {
  std::vector<Expected> entries;
  std::istringstream in(ReadFile(kCorpus + "/expected.yaml"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::string body;
    if (line.starts_with("- ")) {
      entries.emplace_back();
      body = line.substr(2);
    } else if (line.starts_with("  ") && !entries.empty()) {
      body = line.substr(2);
    } else {
      continue;
    }
    const size_t colon = body.find(':');
    if (colon == std::string::npos) continue;
    std::string value = body.substr(colon + 1);
    if (!value.empty() && value[0] == ' ') value.erase(0, 1);
    entries.back().values[body.substr(0, colon)] = Unquote(value);
  }
  return entries;
}

TEST(CorpusTest, TopOneSiteAndClass) {
  std::vector<Expected> cases = ReadExpected();
  ASSERT_GE(cases.size(), 40u) << "expected.yaml not found or unreadable under " << kCorpus;
  int site_hits = 0, class_hits = 0, type_hits = 0, function_hits = 0;
  std::string misses;
  for (Expected& expected : cases) {
    const std::string text = ReadFile(kCorpus + "/" + expected["case"]);
    LocalizeOptions options;
    const std::string& kind = expected["kind"];
    options.kind = kind == "junit"   ? FailureKind::kJUnit
                   : kind == "issue" ? FailureKind::kIssue
                                     : FailureKind::kLog;
    absl::StatusOr<Localization> result = Localize(kCorpus + "/repo", text, options);
    std::string got_site = "-", got_class = "-", got_type = "-", got_function = "-";
    if (result.ok()) {
      got_class = result->symptom.symptom_class;
      got_type = result->symptom.exception_type;
      if (!result->sites.empty()) {
        const Site& top = result->sites.front();
        got_site = absl::StrFormat("%s:%d", top.file, top.line);
        got_function = top.function;
      }
    } else {
      got_class = std::string(result.status().message());
    }
    const std::string want_site = expected["file"] + ":" + expected["line"];
    const bool site_ok = got_site == want_site;
    const bool class_ok = got_class == expected["class"];
    const bool type_ok = got_type == expected["exception"];
    const bool function_ok = got_function == expected["function"];
    site_hits += site_ok;
    class_hits += class_ok;
    type_hits += type_ok;
    function_hits += site_ok && function_ok;
    if (!site_ok || !class_ok || !type_ok || !function_ok) {
      misses += absl::StrFormat("  %-48s site %s (want %s) fn %s (want %s) class %s (want %s) type %s (want %s)\n",
                                expected["case"].substr(6), got_site, want_site, got_function,
                                expected["function"], got_class, expected["class"], got_type,
                                expected["exception"]);
    }
  }
  const double n = static_cast<double>(cases.size());
  std::printf("localization corpus: %zu cases; top-1 site %d (%.1f%%), function %d, class %d (%.1f%%), "
              "exception type %d\n",
              cases.size(), site_hits, 100 * site_hits / n, function_hits, class_hits,
              100 * class_hits / n, type_hits);
  std::printf("misses:\n%s", misses.empty() ? "  none\n" : misses.c_str());
  EXPECT_GE(site_hits / n, 0.9) << misses;
  EXPECT_GE(class_hits / n, 0.9) << misses;
  EXPECT_GE(type_hits / n, 0.9) << misses;
  EXPECT_GE(function_hits / n, 0.9) << misses;
}

}  // namespace
}  // namespace smallfix
