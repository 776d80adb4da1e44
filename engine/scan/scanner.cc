#include "engine/scan/scanner.h"

#include <re2/re2.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>
#include <set>
#include <thread>
#include <tuple>

#include "engine/base/concat.h"
#include "engine/base/read_file.h"
#include "engine/base/status_macros.h"
#include "engine/index/python_files.h"
#include "engine/index/repo_index.h"
#include "engine/patterns/lookups/lookup.h"
#include "engine/patterns/placeholders.h"
#include "engine/scan/def_signatures.h"
#include "engine/source/diff.h"
#include "engine/source/document.h"
#include "engine/source/syntax.h"
#include "engine/source/utf8.h"

namespace smallfix {
namespace {

// {removed_apis}: the old names the API-history table says a release removed, as an
// alternation; with none, a regex that matches nothing.
std::string RemovedApis(const ApiHistory* history) {
  std::string alternatives;
  if (history != nullptr) {
    for (const ApiChange& change : history->changes()) {
      if (change.removed.empty()) continue;
      alternatives += Concat(alternatives.empty() ? "" : "|", RE2::QuoteMeta(change.old_name));
    }
  }
  return alternatives.empty() ? "\\b\\B" : Concat("(?:", alternatives, ")");
}

// The findings of one template's stanza in a parsed file.
void ScanTemplate(const Template& t, const Document& document, const MatchContext& context,
                  std::vector<Finding>& findings) {
  const Template::Scan& scan = *t.scan;
  const Query& query = scan.query ? *scan.query : *t.query;
  std::set<std::pair<int, int>> sites;  // two patterns of one query at one place flag it once
  for (const QueryMatch& match : query.Run(document, document.root())) {
    const std::optional<TSNode> site = match.Get(scan.site);
    if (!site) continue;
    const Position start = document.NodeStart(*site);
    const int line = static_cast<int>(start.line) + 1;
    const int column = static_cast<int>(start.column) + 1;
    if (sites.contains({line, column})) continue;
    const std::optional<TSNode> statement = StatementAt(document, ts_node_start_byte(*site));
    if (!statement) continue;
    Bindings captures = {{"file", document.path()}, {"line", std::to_string(line)}};
    for (const QueryCapture& capture : match.captures) {
      captures.emplace(std::string(capture.name), std::string(document.NodeText(capture.node)));
    }
    Bindings binds;
    bool bound = true;
    for (const auto& [name, text] : scan.bind) {
      absl::StatusOr<std::string> value = Expand(text, captures);
      if (!value.ok()) {
        bound = false;
        break;
      }
      binds[name] = *value;
    }
    if (!bound) continue;
    std::vector<Candidate> candidates =
        MatchAtStatement(t, document, *statement, line, match, binds, scan.conditions, context);
    if (candidates.empty()) continue;
    sites.insert({line, column});
    Finding finding{
        t.id, scan.message, document.path(), line, column, std::move(candidates.front()), ""};
    for (const FileChange& change : finding.candidate.changes) {
      finding.diff += UnifiedDiff(change.file, change.before, change.after).value_or("");
    }
    findings.push_back(std::move(finding));
  }
}

bool FindingOrder(const Finding& a, const Finding& b) {
  return std::tie(a.file, a.line, a.column, a.template_id) <
         std::tie(b.file, b.line, b.column, b.template_id);
}

}  // namespace

Scanner::Scanner(std::vector<Template> templates, std::shared_ptr<const ApiHistory> history)
    : templates_(std::make_shared<const std::vector<Template>>(std::move(templates))),
      history_(std::move(history)) {}

absl::StatusOr<Scanner> Scanner::Create(const std::vector<Template>& templates,
                                        const ApiHistory* history) {
  std::vector<Template> scanning;
  for (const Template& t : templates) {
    if (t.scan) scanning.push_back(t);
  }
  Scanner scanner(std::move(scanning),
                  history == nullptr ? nullptr : std::make_shared<const ApiHistory>(*history));
  const Bindings filter_values = {{"removed_apis", RemovedApis(history)}};
  for (const Template& t : *scanner.templates_) {
    absl::StatusOr<std::string> source = Expand(t.scan->filter, filter_values);
    if (!source.ok())
      return absl::InvalidArgumentError(
          Concat(t.file, ": scan filter: ", source.status().message()));
    auto filter = std::make_shared<const RE2>(*source, RE2::Quiet);
    if (!filter->ok())
      return absl::InvalidArgumentError(
          Concat(t.file, ": scan filter: bad regex: ", filter->error()));
    scanner.rules_.push_back({&t, std::move(filter)});
  }
  return scanner;
}

absl::StatusOr<std::vector<Finding>> Scanner::ScanText(const std::string& path, std::string text,
                                                       bool* parsed, const std::string& root,
                                                       const RepoIndex* index) const {
  if (parsed != nullptr) *parsed = false;
  if (text.size() > Document::kMaxFileBytes) {
    return absl::InvalidArgumentError(Concat(path, ": larger than the ",
                                             std::to_string(Document::kMaxFileBytes >> 20),
                                             " MiB smallfix parses"));
  }
  if (absl::Status utf8 = ValidateUtf8(text); !utf8.ok()) {
    return absl::InvalidArgumentError(Concat(path, ": ", utf8.message()));
  }
  std::vector<const Rule*> passed;
  std::optional<std::string> signatures;  // cut out once, for the filters that read them
  for (const Rule& rule : rules_) {
    std::string_view filtered = text;
    if (rule.t->scan->filter_over == "def-signatures") {
      if (!signatures) signatures = DefSignatures(text);
      filtered = *signatures;
    }
    if (RE2::PartialMatch(filtered, *rule.filter)) passed.push_back(&rule);
  }
  std::vector<Finding> findings;
  if (passed.empty()) return findings;
  SMALLFIX_ASSIGN_OR_RETURN(Document document, Document::Parse(path, std::move(text)));
  if (parsed != nullptr) *parsed = true;
  MatchContext context;
  context.history = history_.get();
  context.index = index;
  if (!root.empty()) {
    context.load = [root](const std::string& file) {
      return Document::Load(Concat(root, "/", file));
    };
  }
  for (const Rule* rule : passed) ScanTemplate(*rule->t, document, context, findings);
  std::sort(findings.begin(), findings.end(), FindingOrder);
  return findings;
}

absl::StatusOr<ScanReport> Scanner::ScanRepo(const std::string& root, int jobs) const {
  absl::StatusOr<std::vector<std::string>> files = ListPythonFiles(root);
  if (!files.ok()) return files.status();
  return ScanFiles(root, *std::move(files), jobs);
}

absl::StatusOr<ScanReport> Scanner::ScanFiles(const std::string& root,
                                              std::vector<std::string> files, int jobs) const {
  const auto start = std::chrono::steady_clock::now();
  // Checks of a call against its callee's signature need the repo index; the others do without.
  std::optional<RepoIndex> index;
  for (const Rule& rule : rules_) {
    for (const Template::Lookup& lookup : rule.t->lookups) {
      if (index || !lookup.spec->index_in_scan) continue;
      SMALLFIX_ASSIGN_OR_RETURN(RepoIndex built, RepoIndex::Build(root));
      index = std::move(built);
    }
  }
  struct PerFile {
    std::vector<Finding> findings;
    std::string note;
    bool parsed = false;
  };
  std::vector<PerFile> results(files.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < files.size(); i = next++) {
      const std::string& file = files[i];
      absl::StatusOr<std::string> text = ReadFile(Concat(root, "/", file));
      if (!text.ok()) {
        results[i].note = Concat(file, ": skipped: cannot read the file");
        continue;
      }
      absl::StatusOr<std::vector<Finding>> found =
          ScanText(file, *std::move(text), &results[i].parsed, root, index ? &*index : nullptr);
      if (!found.ok()) {
        results[i].note = Concat("skipped ", found.status().message());
        continue;
      }
      results[i].findings = *std::move(found);
    }
  };
  const int threads = std::max(1, std::min<int>(jobs, static_cast<int>(files.size())));
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back(work);
  work();
  for (std::thread& thread : pool) thread.join();

  ScanReport report;
  report.files = static_cast<int>(files.size());
  for (PerFile& result : results) {
    if (result.parsed) ++report.parsed;
    if (!result.note.empty()) report.notes.push_back(std::move(result.note));
    for (Finding& finding : result.findings) report.findings.push_back(std::move(finding));
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace smallfix
