#include "engine/repair/candidate_generator.h"

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "engine/base/concat.h"
#include "engine/repair/tree_key.h"
#include "engine/source/diff.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

int CountChangedLines(const std::string& diff) {
  int count = 0;
  size_t start = 0;
  while (start < diff.size()) {
    size_t end = diff.find('\n', start);
    if (end == std::string::npos) end = diff.size();
    const std::string_view line(diff.data() + start, end - start);
    if ((line.starts_with("+") && !line.starts_with("+++")) ||
        (line.starts_with("-") && !line.starts_with("---"))) {
      ++count;
    }
    start = end + 1;
  }
  return count;
}

}  // namespace


absl::StatusOr<std::vector<ScoredCandidate>> GenerateCandidates(const std::string& repo_root,
                                                                const std::vector<RepairSite>& sites,
                                                                const SymptomInput& symptom,
                                                                const Catalogue& catalogue,
                                                                const RepoIndex* index) {
  std::map<std::string, Document> documents;
  auto load = [&](const std::string& file) -> absl::StatusOr<Document> {
    auto it = documents.find(file);
    if (it != documents.end()) return it->second;
    const std::filesystem::path path = std::filesystem::path(repo_root) / file;
    absl::StatusOr<Document> loaded = Document::Load(path.string());
    if (!loaded.ok()) return loaded.status();
    // Diffs and the index speak of repo-relative paths.
    absl::StatusOr<Document> document = Document::Parse(file, std::string(loaded->text()));
    if (!document.ok()) return document.status();
    documents.emplace(file, *document);
    return *document;
  };
  MatchContext context;
  context.index = index;
  context.history = catalogue.history ? &*catalogue.history : nullptr;
  context.load = load;

  std::vector<ScoredCandidate> out;
  std::set<std::string> seen;
  for (const RepairSite& site : sites) {
    absl::StatusOr<Document> document = load(site.file);
    if (!document.ok()) return document.status();
    if (site.line < 1 || site.line > document->lines().line_count()) {
      return absl::InvalidArgumentError(Concat(site.file, " has no line ", std::to_string(site.line)));
    }
    for (const Template& t : catalogue.templates) {
      for (Candidate& candidate : MatchTemplate(t, *document, site.line, symptom, context)) {
        ScoredCandidate scored;
        scored.site_score = site.score;
        std::string key;
        for (const FileChange& change : candidate.changes) {
          absl::StatusOr<std::string> diff = UnifiedDiff(change.file, change.before, change.after);
          if (!diff.ok()) return diff.status();
          scored.diff += *diff;
          key += Concat(change.file, "\n", TreeKey(change.file, change.after), "\n");
        }
        if (!seen.insert(key).second) continue;
        scored.lines_changed = CountChangedLines(scored.diff);
        scored.candidate = std::move(candidate);
        out.push_back(std::move(scored));
      }
    }
  }
  return out;
}

}  // namespace smallfix
