#include "engine/repair/llm_proposer.h"

#include <re2/re2.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/base/concat.h"
#include "engine/rank/llm_client.h"
#include "engine/rank/llm_prompt.h"
#include "engine/source/diff.h"
#include "engine/source/edit.h"
#include "engine/source/indentation.h"
#include "engine/source/syntax.h"
#include "engine/source/tree_key.h"

namespace smallfix {
namespace {

constexpr int kMaxFunctionLinesShown = 60;  // longer functions: this many lines around the site
constexpr size_t kMaxSummaryChars = 160;

// A site with what applying an edit there needs.
struct Target {
  PromptSite prompt;
  Document document;
  TSNode statement;
  std::optional<TSNode> function;
};

std::string Key(const FileChange& change) {
  return Concat(change.file, "\n", TreeKey(change.file, change.after), "\n");
}

// The code without a Markdown fence around it, and without the "   17 | " line numbers of
// the prompt when the model copied them onto every line.
std::string Unwrapped(std::string code) {
  if (code.starts_with("```")) {
    const size_t first = code.find('\n');
    const size_t last = code.rfind("```");
    if (first != std::string::npos && last > first) code = code.substr(first + 1, last - first - 1);
  }
  static const LazyRE2 kNumbered = {R"(^ *\d+ \| ?)"};
  std::vector<std::string> lines = absl::StrSplit(code, '\n');
  bool numbered = true;
  for (const std::string& line : lines) {
    if (!line.empty() && !RE2::PartialMatch(line, *kNumbered)) numbered = false;
  }
  if (!numbered) return code;
  for (std::string& line : lines) RE2::Replace(&line, *kNumbered, "");
  return absl::StrJoin(lines, "\n");
}

// The 0-based lines of `before` and `after` that differ lie within [first, last] of `before`.
bool ChangesOnlyLines(std::string_view before, std::string_view after, int first, int last) {
  const LineIndex a(before), b(after);
  const auto [prefix, suffix] = CommonEnds(a.line_count(), b.line_count(), [&](size_t i, size_t j) {
    return a.Line(static_cast<int>(i)) == b.Line(static_cast<int>(j));
  });
  const int changed_first = static_cast<int>(prefix),
            changed_last = a.line_count() - 1 - static_cast<int>(suffix);
  return changed_last < changed_first || (changed_first >= first && changed_last <= last);
}

absl::StatusOr<Target> MakeTarget(const std::string& repo_root, const Site& site, int number) {
  absl::StatusOr<Document> document =
      Document::Load((std::filesystem::path(repo_root) / site.file).string(), site.file);
  if (!document.ok()) return document.status();
  std::optional<TSNode> statement = StatementAtLine(*document, site.line - 1);
  if (!statement)
    return absl::NotFoundError(absl::StrFormat("%s:%d holds no statement", site.file, site.line));
  Target target{{}, *document, *statement, EnclosingOfType(*statement, {"function_definition"})};
  PromptSite& prompt = target.prompt;
  prompt.id = absl::StrFormat("s%d", number);
  prompt.file = site.file;
  prompt.line = site.line;
  prompt.in_function = target.function.has_value();
  const TSNode around = target.function.value_or(*statement);
  int first = static_cast<int>(ts_node_start_point(around).row) + 1;
  int last = static_cast<int>(ts_node_end_point(around).row) + 1;
  if (last - first + 1 > kMaxFunctionLinesShown) {
    first = std::max(first, site.line - kMaxFunctionLinesShown / 2);
    last = std::min(last, site.line + kMaxFunctionLinesShown / 2);
  }
  prompt.function_text = NumberedLines(document->text(), first, last);
  prompt.statement_text = std::string(document->NodeText(*statement));
  return target;
}

// The candidate for one edit, or why it is rejected.
absl::StatusOr<ScoredCandidate> Apply(const Target& target, const nlohmann::json& edit,
                                      const std::string& model) {
  const std::string kind = JsonString(edit, "target");
  if (kind != "statement" && kind != "function") {
    return absl::InvalidArgumentError(
        Concat("target \"", kind.substr(0, 20), "\" is neither statement nor function"));
  }
  if (kind == "function" && !target.function)
    return absl::InvalidArgumentError("the site is in no function");
  if (!edit.contains("code") || !edit["code"].is_string() ||
      edit["code"].get<std::string>().empty()) {
    return absl::InvalidArgumentError("no code");
  }
  const Document& document = target.document;
  const TSNode node = kind == "function" ? *target.function : target.statement;
  if (!StartsItsLine(document, node))
    return absl::InvalidArgumentError("the statement shares its line");
  const int first = static_cast<int>(ts_node_start_point(node).row);
  const int last = static_cast<int>(ts_node_end_point(node).row);
  const std::string code =
      Reindent(Unwrapped(edit["code"].get<std::string>()), LeadingWhitespace(document, first),
               IndentUnit(document), document.newline());
  EditSet edits;
  if (absl::Status added = edits.Add(
          {document.lines().LineStart(first), document.lines().LineEndWithNewline(last), code});
      !added.ok()) {
    return added;
  }
  absl::StatusOr<Document> after = ApplyEdits(document, edits);
  if (!after.ok() || after->CountSyntaxErrors() > 0)
    return absl::InvalidArgumentError("the result does not parse");
  const std::string before_text(document.text()), after_text(after->text());
  if (TreeKey(document.path(), before_text) == TreeKey(document.path(), after_text)) {
    return absl::InvalidArgumentError("it changes nothing but layout");
  }
  // Where the function is, the edit may touch nothing else (the statement lies inside it).
  const TSNode scope = target.function.value_or(target.statement);
  if (!ChangesOnlyLines(before_text, after_text, static_cast<int>(ts_node_start_point(scope).row),
                        static_cast<int>(ts_node_end_point(scope).row))) {
    return absl::InvalidArgumentError("it changes lines outside the site's function");
  }
  absl::StatusOr<std::string> diff = UnifiedDiff(document.path(), before_text, after_text);
  if (!diff.ok()) return diff.status();
  const auto [added, removed] = AddedRemovedLines(*diff);
  if (std::max(added, removed) > kMaxChangedLines) {
    return absl::InvalidArgumentError(absl::StrFormat("it changes %d lines, more than %d",
                                                      std::max(added, removed), kMaxChangedLines));
  }
  ScoredCandidate scored;
  Candidate& candidate = scored.candidate;
  candidate.template_id = "llm";
  candidate.family = "llm";
  std::string summary = JsonString(edit, "summary");
  if (summary.size() > kMaxSummaryChars)
    summary = Concat(summary.substr(0, kMaxSummaryChars), "...");
  candidate.summary = Concat(model, " proposed: ", summary.empty() ? "(no summary)" : summary);
  for (char& c : candidate.summary) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  candidate.file = target.prompt.file;
  candidate.line = target.prompt.line;
  // Middling heuristic scores: a proposal is neither matched to the symptom by a template
  // nor backed by a strategy's prior; the LLM ranker (always on with --llm) places it.
  candidate.symptom_score = 0.5;
  candidate.prior = 0.2;
  candidate.changes.push_back({candidate.file, before_text, after_text});
  scored.diff = *diff;
  scored.lines_changed = added + removed;
  return scored;
}

// The sites the model is asked about: the first kMaxProposedSites whose code can be shown.
std::vector<Target> TargetsOf(LlmSession& session, const std::string& repo_root,
                              const std::vector<Site>& sites) {
  std::vector<Target> targets;
  for (const Site& site : sites) {
    if (static_cast<int>(targets.size()) == kMaxProposedSites) break;
    absl::StatusOr<Target> target =
        MakeTarget(repo_root, site, static_cast<int>(targets.size()) + 1);
    if (!target.ok()) {
      session.notes.push_back(Concat("llm proposal: site skipped: ", target.status().message()));
      continue;
    }
    targets.push_back(*std::move(target));
  }
  return targets;
}

// The model's answer: its "edits" list, or nullopt with a note saying why it is not used.
std::optional<nlohmann::json> AskForEdits(LlmSession& session, std::string_view failure,
                                          const std::vector<Target>& targets, int max_edits) {
  std::vector<PromptSite> prompt_sites;
  for (const Target& target : targets) prompt_sites.push_back(target.prompt);
  if (session.progress) {
    session.progress(absl::StrFormat("asking the LLM for up to %d edit(s) at %d site(s)", max_edits,
                                     targets.size()));
  }
  absl::StatusOr<nlohmann::json> answer =
      session.client.Chat(ProposePrompt(failure, prompt_sites, max_edits));
  if (!answer.ok()) {
    session.notes.push_back(Concat("llm proposal not used (", answer.status().message(), ")"));
    return std::nullopt;
  }
  if (!answer->contains("edits") || !(*answer)["edits"].is_array()) {
    session.notes.push_back("llm proposal not used (the answer has no \"edits\" list)");
    return std::nullopt;
  }
  return (*answer)["edits"];
}

// Edit `number` of the answer as a candidate, or why not (a note): an unknown site, an edit the
// checks reject, or the same syntax tree as a candidate in `seen`.
std::optional<ScoredCandidate> Accept(LlmSession& session, const nlohmann::json& edit, int number,
                                      const std::vector<Target>& targets,
                                      const std::vector<Site>& sites, std::set<std::string>& seen) {
  const std::string site_id = JsonString(edit, "site");
  auto target = std::find_if(targets.begin(), targets.end(),
                             [&](const Target& t) { return t.prompt.id == site_id; });
  if (target == targets.end()) {
    session.notes.push_back(absl::StrFormat("llm edit %d rejected: unknown site \"%s\"", number,
                                            site_id.substr(0, 20)));
    return std::nullopt;
  }
  absl::StatusOr<ScoredCandidate> candidate = Apply(*target, edit, session.client.model());
  if (!candidate.ok()) {
    session.notes.push_back(absl::StrFormat("llm edit %d at %s:%d rejected: %s", number,
                                            target->prompt.file, target->prompt.line,
                                            candidate.status().message()));
    return std::nullopt;
  }
  candidate->site_score = 1.0;
  for (const Site& site : sites) {
    if (site.file == target->prompt.file && site.line == target->prompt.line)
      candidate->site_score = site.score;
  }
  if (!seen.insert(Key(candidate->candidate.changes.front())).second) {
    session.notes.push_back(
        absl::StrFormat("llm edit %d at %s:%d dropped: the same syntax tree as another candidate",
                        number, target->prompt.file, target->prompt.line));
    return std::nullopt;
  }
  return *std::move(candidate);
}

}  // namespace

std::vector<ScoredCandidate> ProposeEdits(LlmSession& session, std::string_view failure,
                                          const std::string& repo_root,
                                          const std::vector<Site>& sites,
                                          const std::vector<ScoredCandidate>& existing,
                                          int max_edits) {
  std::vector<ScoredCandidate> out;
  if (max_edits < 1 || sites.empty()) return out;
  const std::vector<Target> targets = TargetsOf(session, repo_root, sites);
  if (targets.empty()) return out;
  std::optional<nlohmann::json> edits = AskForEdits(session, failure, targets, max_edits);
  if (!edits) return out;
  std::set<std::string> seen;
  for (const ScoredCandidate& candidate : existing) {
    std::string key;
    for (const FileChange& change : candidate.candidate.changes) key += Key(change);
    seen.insert(key);
  }
  int number = 0, accepted = 0;
  for (const nlohmann::json& edit : *edits) {
    ++number;
    if (number > max_edits) {
      session.notes.push_back(
          absl::StrFormat("llm proposal: edits past the %d asked for ignored", max_edits));
      break;
    }
    std::optional<ScoredCandidate> candidate = Accept(session, edit, number, targets, sites, seen);
    if (!candidate) continue;
    ++accepted;
    out.push_back(*std::move(candidate));
  }
  session.notes.push_back(absl::StrFormat("llm proposal: %d of %d edit(s) kept as candidates",
                                          accepted, std::min<int>(number, max_edits)));
  return out;
}

}  // namespace smallfix
