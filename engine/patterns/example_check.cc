#include "engine/patterns/example_check.h"

#include <map>

#include "engine/base/concat.h"
#include "engine/index/repo_index.h"
#include "engine/source/diff.h"

namespace smallfix {
namespace {

constexpr char kExampleFile[] = "example.py";

}  // namespace

std::vector<ExampleResult> CheckExamples(const Template& t, const ApiHistory* history,
                                         const SymptomParser& parse_symptom) {
  std::vector<ExampleResult> results;
  for (const Template::Example& example : t.examples) {
    ExampleResult result{t.id, example.name, false, ""};
    std::map<std::string, Document> files;
    absl::StatusOr<Document> main = Document::Parse(kExampleFile, example.before);
    if (!main.ok()) {
      result.detail = Concat("before does not parse: ", main.status().message());
      results.push_back(std::move(result));
      continue;
    }
    std::vector<Document> documents = {*main};
    for (const auto& [path, text] : example.files) {
      absl::StatusOr<Document> document = Document::Parse(path, text);
      if (document.ok()) {
        documents.push_back(*document);
        files.emplace(path, *document);
      }
    }
    files.emplace(kExampleFile, *main);
    const RepoIndex index = RepoIndex::FromDocuments(documents);
    MatchContext context;
    context.index = &index;
    context.history = history;
    context.runtime = example.facts.get();
    context.load = [&files](const std::string& path) -> absl::StatusOr<Document> {
      auto it = files.find(path);
      if (it == files.end())
        return absl::NotFoundError(Concat("no file ", path, " in the example"));
      return it->second;
    };
    std::vector<std::string> reasons;
    const std::vector<Candidate> candidates =
        MatchTemplate(t, *main, example.line, parse_symptom(example.symptom), context, &reasons);
    auto why = [&] {
      std::string text;
      for (const std::string& reason : reasons) text += Concat("\n    ", reason);
      return text;
    };
    if (!example.after) {
      result.passed = candidates.empty();
      if (!result.passed) {
        const FileChange& change = candidates.front().changes.front();
        result.detail = Concat("applied where it must not:\n",
                               UnifiedDiff(change.file, change.before, change.after).value_or(""));
      }
    } else if (candidates.empty()) {
      result.detail = Concat("did not apply:", why());
    } else {
      std::string actual;
      for (const Candidate& candidate : candidates) {
        for (const FileChange& change : candidate.changes) {
          if (change.file != kExampleFile) continue;
          if (change.after == *example.after) result.passed = true;
          if (actual.empty()) actual = change.after;
        }
      }
      if (!result.passed) {
        result.detail = Concat("the result differs from `after` (- expected, + actual):\n",
                               UnifiedDiff(kExampleFile, *example.after, actual).value_or(""));
      }
    }
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace smallfix
