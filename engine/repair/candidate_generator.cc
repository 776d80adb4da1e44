#include "engine/repair/candidate_generator.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include "engine/base/concat.h"
#include "engine/base/text.h"
#include "engine/index/module_facts.h"
#include "engine/localize/path_mapper.h"
#include "engine/localize/symptom.h"
#include "engine/patterns/lookups/lookup.h"
#include "engine/rank/site_order.h"
#include "engine/repair/line_copies.h"
#include "engine/repair/multi_site_candidates.h"
#include "engine/source/diff.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// `text` up to layout within lines: each line's indentation kept, other runs of spaces
// dropped, except one between two word characters (`is not`, `return x`); blank lines
// dropped. Two results of one file that differ only in spacing (`x+1`, `x + 1`) get one key.
// A linear scan: the syntax tree key (TreeKey) would re-parse the file per candidate, which
// at a large file's site costs more than generating the candidates.
std::string LayoutKey(std::string_view text) {
  std::string key;
  key.reserve(text.size());
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    size_t i = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i == line.size() || line[i] == '\r') continue;
    key.append(line.substr(0, i));
    bool pending_space = false;
    for (; i < line.size(); ++i) {
      const char c = line[i];
      if (c == ' ' || c == '\t' || c == '\r') {
        pending_space = true;
        continue;
      }
      if (pending_space && !key.empty() && IsWordChar(key.back()) && IsWordChar(c)) key += ' ';
      pending_space = false;
      key += c;
    }
    key += '\n';
  }
  return key;
}

// For sites that are one fix's lines: per file with two or more of them, each candidate's
// sites_covered there, and the candidates that edit several (see GenerateOptions::one_fix).
absl::Status AddMultiSiteCandidates(
    const std::vector<Site>& sites,
    const std::function<absl::StatusOr<Document>(const std::string&)>& load,
    std::set<std::string>& seen, std::vector<ScoredCandidate>& out) {
  std::map<std::string, std::vector<int>> lines_of_file;
  for (const Site& site : sites) lines_of_file[site.file].push_back(site.line);
  for (auto& [file, lines] : lines_of_file) {
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    if (lines.size() < 2) continue;
    absl::StatusOr<Document> document = load(file);
    if (!document.ok()) return document.status();
    for (ScoredCandidate& scored : out) {
      const std::vector<FileChange>& changes = scored.candidate.changes;
      if (changes.size() == 1 && changes.front().file == file &&
          changes.front().before == document->text()) {
        scored.sites_covered = SitesCovered(*document, changes.front().after, lines);
      }
    }
    for (ScoredCandidate& multi : MultiSiteCandidates(*document, lines, out)) {
      // Counted per edit (MultiSiteCandidates sets it): the result as one changed region
      // cannot tell a move (a line removed, the same inserted before a site) from a rewrite of
      // the lines between, and under-counts it. An insertion counts for the line after it, as
      // realfix's fault lines do.
      if (multi.sites_covered < 2) continue;
      const std::string key =
          Concat(file, "\n", LayoutKey(multi.candidate.changes.front().after), "\n");
      if (seen.insert(key).second) out.push_back(std::move(multi));
    }
  }
  return absl::OkStatus();
}

// A site is also the gap before its line: a fix may insert a statement there, after the
// statement before it in the same block (the value that statement made gets its default, a
// collective's result its division). The 1-based line of that statement, or 0 when the site's
// line does not start a statement or none comes before it in the block. On a blank or comment
// line (where a fix that only inserts has its fault line when it adds to the end of a block,
// an import after the last one) it is the statement on the nearest code line above.
int StatementBeforeLine(const Document& document, int line) {
  std::optional<TSNode> statement = StatementAtLine(document, line - 1);
  if (!statement) {
    for (int above = line - 2; above >= 0; --above) {
      const std::string_view text = document.lines().Line(above);
      const size_t first = text.find_first_not_of(" \t\f\r");
      if (first == std::string_view::npos || text[first] == '#') continue;
      std::optional<TSNode> before = StatementAtLine(document, above);
      return before ? static_cast<int>(document.NodeStart(*before).line) + 1 : 0;
    }
    return 0;
  }
  if (static_cast<int>(document.NodeStart(*statement).line) != line - 1) return 0;
  TSNode previous = ts_node_prev_named_sibling(*statement);
  while (!ts_node_is_null(previous) && IsComment(previous))
    previous = ts_node_prev_named_sibling(previous);
  if (ts_node_is_null(previous) || !IsStatement(previous)) return 0;
  return static_cast<int>(document.NodeStart(previous).line) + 1;
}

// True when the candidate only inserts text at byte `at` of its one file: nothing before or
// after the gap changes.
bool OnlyInsertsAt(const Candidate& candidate, const std::string& file, size_t at) {
  if (candidate.changes.size() != 1 || candidate.changes.front().file != file) return false;
  const std::string& before = candidate.changes.front().before;
  const std::string& after = candidate.changes.front().after;
  if (at > before.size() || after.size() <= before.size()) return false;
  const std::string_view head(before.data(), at), tail(before.data() + at, before.size() - at);
  return std::string_view(after).starts_with(head) && std::string_view(after).ends_with(tail);
}

using Loader = std::function<absl::StatusOr<Document>(const std::string&)>;

// The given sites, each followed by where its bad value came from (GenerateOptions::follow_cause),
// each place once. A site's file that cannot be read, or a line it does not have, is an error.
absl::StatusOr<std::vector<Site>> SitesAndCauses(const std::vector<Site>& sites,
                                                 const Symptom& symptom, const RepoIndex* index,
                                                 const Loader& load,
                                                 const GenerateOptions& options) {
  std::vector<Site> all_sites;
  std::set<std::pair<std::string, int>> listed;
  for (const Site& site : sites) {
    absl::StatusOr<Document> document = load(site.file);
    if (!document.ok()) return document.status();
    if (site.line < 1 || site.line > document->lines().line_count()) {
      return absl::InvalidArgumentError(
          Concat(site.file, " has no line ", std::to_string(site.line)));
    }
    if (listed.insert({site.file, site.line}).second) all_sites.push_back(site);
    if (!options.follow_cause) continue;
    for (const Site& cause :
         CauseSites(*document, site, symptom, index, load, options.cause_site_factor)) {
      if (listed.insert({cause.file, cause.line}).second) all_sites.push_back(cause);
    }
  }
  return all_sites;
}

// What one site's generation shares across its templates.
struct AtSite {
  const Site& site;
  const Document& document;
  const Symptom& symptom;
  const MatchContext& context;
  SymptomMode mode;
  int line_before;  // StatementBeforeLine, 0: none
  size_t gap;       // the byte where the site's line starts
};

// Every way template `t` applies at the site, and in the gap before it: what the template
// inserts after the statement before the site.
std::vector<Candidate> MatchAtSite(const Template& t, const AtSite& at) {
  std::vector<Candidate> candidates =
      MatchTemplate(t, at.document, at.site.line, at.symptom, at.context, nullptr, at.mode);
  if (at.line_before <= 0) return candidates;
  for (Candidate& candidate :
       MatchTemplate(t, at.document, at.line_before, at.symptom, at.context, nullptr, at.mode)) {
    if (!OnlyInsertsAt(candidate, at.site.file, at.gap)) continue;
    candidate.line = at.site.line;
    candidates.push_back(std::move(candidate));
  }
  return candidates;
}

// One site's candidates, deduplicated: one per code they leave (`here_by_key`: that code -> its
// place in `here`), none whose code a better-placed site already has (`seen`).
struct SiteCandidates {
  std::vector<ScoredCandidate> here;
  std::map<std::string, size_t> here_by_key;
};

absl::Status AddCandidate(Candidate candidate, const Site& site, const std::set<std::string>& seen,
                          SiteCandidates& out) {
  ScoredCandidate scored;
  scored.site_score = site.score;
  std::string key;
  for (const FileChange& change : candidate.changes)
    key += Concat(change.file, "\n", LayoutKey(change.after), "\n");
  if (seen.count(key)) return absl::OkStatus();  // a better-placed site already has this code
  // Ranking needs the size of the change; the diff itself only the candidates kept.
  for (const FileChange& change : candidate.changes) {
    absl::StatusOr<int> lines = ChangedLineCount(change.before, change.after);
    if (!lines.ok()) return lines.status();
    scored.lines_changed += *lines;
  }
  scored.candidate = std::move(candidate);
  const auto [twin, added] = out.here_by_key.emplace(key, out.here.size());
  if (!added) {
    // Two templates wrote the same code here. Keep the one that ranks first: generic
    // templates come first in the catalogue, and a symptom-matched twin must not lose
    // its place to them.
    if (BetterAtSite(scored, out.here[twin->second])) out.here[twin->second] = std::move(scored);
    return absl::OkStatus();
  }
  out.here.push_back(std::move(scored));
  return absl::OkStatus();
}

// The failure that points at the site. A chained exception, or another rank's, may differ
// from the run's (a ValueError raised through the site's frame while the test reports pytest's
// "DID NOT WARN"): the templates at the site answer the one raised there.
Symptom SiteSymptom(const Site& site, const Symptom& failure) {
  if (site.symptom.empty() || site.symptom == failure.Text()) return failure;
  const Symptom raised = Symptom::FromText(site.symptom);
  if (raised.exception_type.empty()) return failure;
  return ClassifySymptom(raised.exception_type, raised.message);
}

// The candidates kept at one site, in the within-site order, capped, each with its diff; their
// code is added to `seen`.
absl::StatusOr<std::vector<ScoredCandidate>> CandidatesAtSite(
    const Site& site, const Document& document, const Catalogue& catalogue, const Symptom& symptom,
    const MatchContext& context, const GenerateOptions& options, std::set<std::string>& seen) {
  // A test's own file: only templates that answer the symptom, as before generic ones
  // existed. A generic edit there (drop the failing assert, change what it compares)
  // makes the failing test pass without fixing anything.
  const bool test_file = PathMapper::IsTestFile(site.file);
  const SymptomMode mode =
      test_file || !options.any_symptom ? SymptomMode::kRequire : SymptomMode::kRankOnly;
  const Symptom here_symptom = SiteSymptom(site, symptom);
  const AtSite at{site,
                  document,
                  here_symptom,
                  context,
                  mode,
                  StatementBeforeLine(document, site.line),
                  document.lines().LineStart(site.line - 1)};
  SiteCandidates found;
  for (const Template& t : catalogue.templates) {
    if (test_file && t.symptoms.empty()) continue;
    if (options.runtime_templates_only && !ReadsRuntimeFacts(t)) continue;
    for (Candidate& candidate : MatchAtSite(t, at)) {
      if (absl::Status added = AddCandidate(std::move(candidate), site, seen, found); !added.ok())
        return added;
    }
  }
  for (const auto& [key, place] : found.here_by_key) seen.insert(key);
  std::vector<ScoredCandidate>& here = found.here;
  OrderAtSite(here);
  if (options.max_per_site > 0 && here.size() > static_cast<size_t>(options.max_per_site)) {
    here.resize(options.max_per_site);
  }
  for (ScoredCandidate& scored : here) {
    for (const FileChange& change : scored.candidate.changes) {
      absl::StatusOr<std::string> diff = UnifiedDiff(change.file, change.before, change.after);
      if (!diff.ok()) return diff.status();
      scored.diff += *diff;
    }
    scored.lines_changed = CountChangedLines(scored.diff);
    scored.copies = scored.candidate.places;
  }
  return here;
}

}  // namespace

absl::StatusOr<std::vector<ScoredCandidate>> GenerateCandidates(
    const std::string& repo_root, const std::vector<Site>& sites, const Symptom& symptom,
    const Catalogue& catalogue, const RepoIndex* index, const GenerateOptions& options) {
  std::map<std::string, Document> documents;
  const Loader load = [&](const std::string& file) -> absl::StatusOr<Document> {
    auto it = documents.find(file);
    if (it != documents.end()) return it->second;
    const std::filesystem::path path = std::filesystem::path(repo_root) / file;
    // Diffs and the index speak of repo-relative paths.
    absl::StatusOr<Document> document = Document::Load(path.string(), file);
    if (!document.ok()) return document.status();
    documents.emplace(file, *document);
    return *document;
  };
  ModuleFacts facts;
  MatchContext context;
  context.index = index;
  context.facts = &facts;
  context.history = catalogue.history ? &*catalogue.history : nullptr;
  context.load = load;
  context.runtime = options.runtime;
  absl::StatusOr<std::vector<Site>> all_sites =
      SitesAndCauses(sites, symptom, index, load, options);
  if (!all_sites.ok()) return all_sites.status();
  std::vector<ScoredCandidate> out;
  std::set<std::string> seen;
  for (const Site& site : *all_sites) {
    absl::StatusOr<Document> document = load(site.file);
    if (!document.ok()) return document.status();
    absl::StatusOr<std::vector<ScoredCandidate>> here =
        CandidatesAtSite(site, *document, catalogue, symptom, context, options, seen);
    if (!here.ok()) return here.status();
    // With fix lines given, AddMultiSiteCandidates repeats edits over them instead.
    if (!options.one_fix) {
      FindLineCopies elsewhere;
      if (index != nullptr) {
        elsewhere = [&](const Document& in, int line) {
          return CopiesInOtherFiles(*index, load, in, line);
        };
      }
      *here = WithSameEditAtCopies(*document, *std::move(here), elsewhere);
    }
    for (ScoredCandidate& scored : *here) out.push_back(std::move(scored));
  }
  if (options.one_fix) {
    absl::Status added = AddMultiSiteCandidates(sites, load, seen, out);
    if (!added.ok()) return added;
  }
  return out;
}

}  // namespace smallfix
