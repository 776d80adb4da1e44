// Runs Localize on every case of the localization corpus (tests/data/localize) and checks
// the symptom class, the exception type and the top-1 site (file, line, function); and on
// every case of the pasted-shapes corpus (shapes.yaml), reporting top-1 and top-3 by shape.
#include <gtest/gtest.h>

#include <algorithm>
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

std::vector<Expected> ReadExpected(const std::string& name = "expected.yaml") {
  std::vector<Expected> entries;
  std::istringstream in(ReadFile(kCorpus + "/" + name));
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

// The shapes users paste (cut, boxed, prefixed, nested, an error line alone, ...; and in
// shapes_more.yaml host-prefixed multi-node logs, installed copies laid out otherwise than the
// repo, classes named by the message, argument checks in wrappers, recursion): the top site
// must be right for 90% of all cases and 80% of each shape; `also_top3` (the caller that
// passed a wrong object) must be among the first three sites too. `repo` names the mini repo
// a case runs against (default repo/).
TEST(CorpusTest, PastedShapesByShape) {
  std::vector<Expected> cases = ReadExpected("shapes.yaml");
  ASSERT_GE(cases.size(), 60u) << "shapes.yaml not found or unreadable under " << kCorpus;
  std::vector<Expected> more = ReadExpected("shapes_more.yaml");
  ASSERT_GE(more.size(), 25u) << "shapes_more.yaml not found or unreadable under " << kCorpus;
  cases.insert(cases.end(), more.begin(), more.end());
  struct Count {
    int cases = 0, top1 = 0, top3 = 0;
  };
  std::map<std::string, Count> by_shape;
  Count all;
  std::string misses;
  for (Expected& expected : cases) {
    const std::string text = ReadFile(kCorpus + "/" + expected["case"]);
    ASSERT_FALSE(text.empty()) << expected["case"];
    const std::string repo = expected["repo"].empty() ? "repo" : expected["repo"];
    absl::StatusOr<Localization> result = Localize(kCorpus + "/" + repo, text);
    std::vector<std::string> sites;
    if (result.ok()) {
      for (const Site& site : result->sites)
        sites.push_back(absl::StrFormat("%s:%d", site.file, site.line));
    }
    const std::string want = expected["file"] + ":" + expected["line"];
    auto in_top3 = [&](const std::string& site) {
      return std::find(sites.begin(), sites.begin() + std::min<size_t>(3, sites.size()), site) !=
             sites.begin() + std::min<size_t>(3, sites.size());
    };
    const bool top1 = !sites.empty() && sites.front() == want;
    const bool top3 =
        in_top3(want) && (expected["also_top3"].empty() || in_top3(expected["also_top3"]));
    Count& count = by_shape[expected["shape"]];
    for (Count* c : {&count, &all}) {
      ++c->cases;
      c->top1 += top1;
      c->top3 += top3;
    }
    if (!top1 || !top3) {
      misses += absl::StrFormat(
          "  %-44s got %s want %s%s%s\n", expected["case"].substr(7),
          sites.empty()
              ? (result.ok() ? std::string("no site") : std::string(result.status().message()))
              : sites.front(),
          want, expected["also_top3"].empty() ? "" : " and in top-3 ", expected["also_top3"]);
    }
  }
  std::printf("pasted shapes: %d cases; top-1 %d (%.1f%%), top-3 %d (%.1f%%)\n", all.cases,
              all.top1, 100.0 * all.top1 / all.cases, all.top3, 100.0 * all.top3 / all.cases);
  std::printf("  %-16s %5s %7s %7s\n", "shape", "cases", "top-1", "top-3");
  for (const auto& [shape, count] : by_shape) {
    std::printf("  %-16s %5d %3d/%-3d %3d/%-3d\n", shape.c_str(), count.cases, count.top1,
                count.cases, count.top3, count.cases);
  }
  std::printf("misses:\n%s", misses.empty() ? "  none\n" : misses.c_str());
  EXPECT_GE(all.top1, 0.9 * all.cases) << misses;
  for (const auto& [shape, count] : by_shape) {
    EXPECT_GE(count.top1, 0.8 * count.cases) << "shape " << shape << "\n" << misses;
  }
}

}  // namespace
}  // namespace smallfix
