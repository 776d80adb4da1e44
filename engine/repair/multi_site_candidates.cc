#include "engine/repair/multi_site_candidates.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "engine/base/concat.h"
#include "engine/base/text.h"
#include "engine/repair/site_statements.h"
#include "engine/source/diff.h"
#include "engine/source/edit.h"

namespace smallfix {
namespace {

// The one region where `after` differs from `before`: their common prefix and suffix left out.
// A removed or inserted run of whole lines is slid back to start at its first line's start:
// the common prefix alone would start it after the line's indentation.
Edit EditBetween(std::string_view before, std::string_view after) {
  const auto [prefix, suffix] = CommonEnds(
      before.size(), after.size(), [&](size_t i, size_t j) { return before[i] == after[j]; });
  Edit edit{prefix, before.size() - suffix,
            std::string(after.substr(prefix, after.size() - prefix - suffix))};
  // The moved run: the removed bytes, or the inserted ones.
  const bool removal = edit.replacement.empty() && edit.end > edit.start;
  const bool insertion = edit.start == edit.end && !edit.replacement.empty();
  if (!removal && !insertion) return edit;
  while (edit.start > 0 && before[edit.start - 1] != '\n') {
    const char last = removal ? before[edit.end - 1] : edit.replacement.back();
    if (before[edit.start - 1] != last) break;
    --edit.start;
    if (removal) {
      --edit.end;
    } else {
      edit.replacement.pop_back();
      edit.replacement.insert(edit.replacement.begin(), last);
      edit.end = edit.start;
    }
  }
  return edit;
}

// The 1-based lines an edit of `document` touches (see SitesCovered).
std::pair<int, int> LinesOf(const Document& document, const Edit& edit) {
  const LineIndex& lines = document.lines();
  const std::string_view text = document.text();
  const int first = lines.ToPosition(edit.start).line + 1;
  if (edit.start == edit.end) {
    // An insertion at a line's end (before its newline) reads as one before the next line.
    const bool at_end = edit.start < text.size() && text[edit.start] == '\n';
    return {first, first + (at_end ? 1 : 0)};
  }
  return {first, lines.ToPosition(edit.end - 1).line + 1};
}

int Covered(const Document& document, const std::vector<Edit>& edits,
            const std::vector<int>& lines) {
  int covered = 0;
  for (int line : lines) {
    for (const Edit& edit : edits) {
      const auto [first, last] = LinesOf(document, edit);
      if (line >= first && line <= last) {
        ++covered;
        break;
      }
    }
  }
  return covered;
}

// One generated candidate at a site, as an edit of the site's file.
struct Single {
  const ScoredCandidate* scored = nullptr;
  Edit edit;
};

// A multi-site candidate before it is built: its edits, the singles they came from (none for
// a statement move), and how many independent choices it makes.
struct Draft {
  std::string template_id;
  std::vector<Edit> edits;
  std::vector<const Single*> parts;
  double prior = 1;
  int covered = 0;
  int choices = 1;
  std::string summary;  // when no single says it
  int line = 0;
};

bool Better(const Draft& a, const Draft& b) {
  if (a.covered != b.covered) return a.covered > b.covered;
  if (a.choices != b.choices) return a.choices < b.choices;
  return a.prior > b.prior;
}

double PriorOf(const Single& single) { return std::max(single.scored->candidate.prior, 1e-3); }

bool Overlap(const Edit& a, const Edit& b) {
  // Two insertions at one place, or an insertion inside a replaced range, overlap too.
  return a.start < std::max(b.end, b.start + 1) && b.start < std::max(a.end, a.start + 1);
}

// The single's edit widened to whole words at both ends, so that a renamed name is found as
// the whole name elsewhere: `trainer.train_loop.x` -> `trainer.fit_loop.x` differs in
// `train`/`fit` but the edit is `train_loop` -> `fit_loop`.
Edit WidenToWords(std::string_view text, Edit edit) {
  auto starts_word = [](std::string_view s) { return !s.empty() && IsWordChar(s.front()); };
  auto ends_word = [](std::string_view s) { return !s.empty() && IsWordChar(s.back()); };
  const std::string_view old_text = text.substr(edit.start, edit.end - edit.start);
  if (starts_word(old_text) || starts_word(edit.replacement)) {
    while (edit.start > 0 && IsWordChar(text[edit.start - 1])) {
      edit.replacement.insert(edit.replacement.begin(), text[--edit.start]);
    }
  }
  const std::string_view widened = text.substr(edit.start, edit.end - edit.start);
  if (ends_word(widened) || ends_word(edit.replacement)) {
    while (edit.end < text.size() && IsWordChar(text[edit.end]))
      edit.replacement += text[edit.end++];
  }
  return edit;
}

// Whether `old_text`, at `start` of `text`, is one whole line with its newline.
bool IsWholeLine(std::string_view text, size_t start, std::string_view old_text) {
  return (start == 0 || text[start - 1] == '\n') && !old_text.empty() && old_text.back() == '\n' &&
         old_text.find('\n') == old_text.size() - 1;
}

// The edit `old_text` -> `replacement` at each of `lines` (1-based) of `target` that holds
// `old_text` as whole words (every occurrence on the line), or, for an edit of one whole line,
// at each of them that is that line. Lines `skip_first`..`skip_last` are left out (the edit's
// own, when `target` is its document).
std::vector<Edit> SameEditOn(const Document& target, std::string_view old_text,
                             const std::string& replacement, bool whole_line,
                             const std::vector<int>& lines, int skip_first = 0,
                             int skip_last = -1) {
  const std::string_view text = target.text();
  std::vector<Edit> out;
  for (int line : lines) {
    if (line >= skip_first && line <= skip_last) continue;
    const size_t begin = target.lines().LineStart(line - 1), end = target.lines().LineEnd(line - 1);
    if (whole_line) {
      const size_t stop = target.lines().LineEndWithNewline(line - 1);
      if (text.substr(begin, stop - begin) == old_text)
        out.push_back(Edit{begin, stop, replacement});
      continue;
    }
    for (size_t at = text.find(old_text, begin);
         at != std::string_view::npos && at + old_text.size() <= end;
         at = text.find(old_text, at + 1)) {
      const size_t stop = at + old_text.size();
      if (IsWordChar(old_text.front()) && at > 0 && IsWordChar(text[at - 1])) continue;
      if (IsWordChar(old_text.back()) && stop < text.size() && IsWordChar(text[stop])) continue;
      out.push_back(Edit{at, stop, replacement});
      at = stop - 1;
    }
  }
  return out;
}

// Whether `edit` of `document` may be repeated elsewhere: a one- or two-character change
// (`1` -> `0`, `(` -> `[`) repeats by chance too often to say that the fix repeats it, and
// only a one-line edit or an edit of whole lines is looked for on other lines. Sets
// `whole_line` for the latter.
bool Repeatable(const Document& document, const Edit& edit, bool& whole_line) {
  const std::string_view text = document.text();
  const std::string_view old_text = text.substr(edit.start, edit.end - edit.start);
  const size_t shown = std::count_if(old_text.begin(), old_text.end(),
                                     [](char c) { return c != ' ' && c != '\t' && c != '\n'; });
  whole_line = IsWholeLine(text, edit.start, old_text);
  return shown >= 3 && (whole_line || (old_text.find('\n') == std::string_view::npos &&
                                       edit.replacement.find('\n') == std::string::npos));
}

// The same edit at each other site line that holds its old text as whole words, or, for an
// edit of one whole line, at each other site line that is the same line; empty when no other
// line does (see SameEditOn, Repeatable).
std::vector<Edit> SameEditElsewhere(const Document& document, const Edit& edit,
                                    const std::vector<int>& lines) {
  bool whole_line = false;
  if (!Repeatable(document, edit, whole_line)) return {};
  const auto [first, last] = LinesOf(document, edit);
  return SameEditOn(document, document.text().substr(edit.start, edit.end - edit.start),
                    edit.replacement, whole_line, lines, first, last);
}

// Choices a combination makes: which template, once per distinct template (one operator on
// each line, `x - 1` -> `x`, is one), plus which of its matches at each site (one more for
// all). A repeated edit or a move makes one.
int CombinationChoices(const std::vector<const Single*>& parts) {
  std::set<std::string> ids;
  for (const Single* part : parts) ids.insert(part->scored->candidate.template_id);
  return static_cast<int>(ids.size()) + 1;
}

// Beam over the sites, each either left alone or given one of its best singles.
std::vector<Draft> Combinations(const Document& document, const std::vector<int>& lines,
                                const std::map<int, std::vector<Single>>& by_line,
                                const MultiSiteOptions& options) {
  constexpr size_t kBeam = 32;
  std::vector<Draft> beam(1);
  for (const auto& [line, singles] : by_line) {
    std::vector<Draft> next = beam;
    for (const Draft& partial : beam) {
      for (size_t k = 0; k < singles.size() && k < static_cast<size_t>(options.per_site); ++k) {
        const Single& single = singles[k];
        const bool clash = std::any_of(partial.edits.begin(), partial.edits.end(),
                                       [&](const Edit& e) { return Overlap(e, single.edit); });
        if (clash) continue;
        Draft grown = partial;
        grown.template_id = "multi.combined";
        grown.edits.push_back(single.edit);
        grown.parts.push_back(&single);
        grown.prior *= PriorOf(single);
        grown.choices = CombinationChoices(grown.parts);
        grown.covered = Covered(document, grown.edits, lines);
        next.push_back(std::move(grown));
      }
    }
    std::stable_sort(next.begin(), next.end(), Better);
    if (next.size() > kBeam) next.resize(kBeam);
    beam = std::move(next);
  }
  std::vector<Draft> out;
  for (Draft& draft : beam) {
    if (draft.parts.size() >= 2) out.push_back(std::move(draft));
  }
  return out;
}

// One template's own first answer at each site where it has one, combined: the template
// applied at every line, each line answering for itself (`weight` -> `fc1_weight` on one
// line, `fc2_weight` on the next), where multi.same-edit would repeat one line's answer. One
// choice, as a repeated edit; its prior is its least likely part's. Beside the beam, which
// takes only each site's first `per_site` singles and may never pair a template's answers.
std::vector<Draft> SameTemplateCombinations(const Document& document, const std::vector<int>& lines,
                                            const std::map<int, std::vector<Single>>& by_line) {
  std::map<std::string, Draft> by_template;
  for (const auto& [line, singles] : by_line) {
    std::set<std::string> taken;  // a template's first single here only
    for (const Single& single : singles) {
      const std::string& id = single.scored->candidate.template_id;
      if (!taken.insert(id).second) continue;
      Draft& draft = by_template[id];
      const bool clash = std::any_of(draft.edits.begin(), draft.edits.end(),
                                     [&](const Edit& e) { return Overlap(e, single.edit); });
      if (clash) continue;
      draft.edits.push_back(single.edit);
      draft.parts.push_back(&single);
      draft.prior =
          draft.parts.size() == 1 ? PriorOf(single) : std::min(draft.prior, PriorOf(single));
    }
  }
  std::vector<Draft> out;
  for (auto& [id, draft] : by_template) {
    if (draft.parts.size() < 2) continue;
    draft.template_id = "multi.same-template";
    draft.choices = 1;
    draft.covered = Covered(document, draft.edits, lines);
    out.push_back(std::move(draft));
  }
  return out;
}

// Singles by site, in the order given (best first); only one-file edits of this file.
std::map<int, std::vector<Single>> SinglesByLine(const Document& document,
                                                 const std::set<int>& site_lines,
                                                 const std::vector<ScoredCandidate>& singles) {
  std::map<int, std::vector<Single>> by_line;
  for (const ScoredCandidate& scored : singles) {
    const Candidate& candidate = scored.candidate;
    if (!site_lines.count(candidate.line) || candidate.changes.size() != 1) continue;
    const FileChange& change = candidate.changes.front();
    if (change.file != document.path() || change.before != document.text() ||
        change.after == change.before)
      continue;
    by_line[candidate.line].push_back(Single{&scored, EditBetween(change.before, change.after)});
  }
  return by_line;
}

// A single's edit widened to whole words and repeated wherever its old text stands on the
// other lines, one draft per single that has such places.
void AddSameEdits(const Document& document, const std::vector<int>& lines,
                  const std::map<int, std::vector<Single>>& by_line, std::vector<Draft>& drafts) {
  for (const auto& [line, here] : by_line) {
    for (const Single& single : here) {
      const Edit widened = WidenToWords(document.text(), single.edit);
      std::vector<Edit> elsewhere = SameEditElsewhere(document, widened, lines);
      if (elsewhere.empty()) continue;
      Draft draft;
      draft.template_id = "multi.same-edit";
      draft.edits.push_back(widened);
      draft.parts.push_back(&single);
      draft.prior = PriorOf(single);
      for (Edit& edit : elsewhere) draft.edits.push_back(std::move(edit));
      draft.covered = Covered(document, draft.edits, lines);
      drafts.push_back(std::move(draft));
    }
  }
}

// The edits that are not any single's: a statement moved before another line's, the
// statements on the lines removed.
void AddMovesAndRemovals(const Document& document, const std::vector<int>& lines,
                         const MultiSiteOptions& options, std::vector<Draft>& drafts) {
  for (StatementMove& move : StatementMoves(document, lines)) {
    Draft draft;
    draft.template_id = "multi.move-statement";
    draft.edits = std::move(move.edits);
    draft.prior = move.data_flow ? options.move_flow_prior : options.move_prior;
    draft.covered = Covered(document, draft.edits, lines);
    draft.summary = Concat("Move the statement at line ", std::to_string(move.from_line),
                           " to before line ", std::to_string(move.to_line));
    draft.line = move.from_line;
    drafts.push_back(std::move(draft));
  }
  std::vector<Edit> removals = SiteStatementRemovals(document, lines);
  if (removals.empty()) return;
  Draft draft;
  draft.template_id = "multi.remove-statements";
  draft.edits = std::move(removals);
  draft.prior = options.remove_prior;
  draft.covered = Covered(document, draft.edits, lines);
  draft.summary =
      Concat("Remove the ", std::to_string(draft.edits.size()), " statement(s) on the fix's lines");
  draft.line = lines.front();
  drafts.push_back(std::move(draft));
}

// `document` with `edits` made, and its diff; nullopt when they overlap or break its syntax.
struct Applied {
  FileChange change;
  std::string diff;
};
std::optional<Applied> Apply(const Document& document, const std::vector<Edit>& edits) {
  EditSet set;
  for (const Edit& edit : edits) {
    if (!set.Add(edit).ok()) return std::nullopt;
  }
  absl::StatusOr<Document> edited = ApplyEdits(document, set);
  if (!edited.ok()) return std::nullopt;
  std::string after(edited->text());
  absl::StatusOr<std::string> diff = UnifiedDiff(document.path(), document.text(), after);
  if (!diff.ok()) return std::nullopt;
  return Applied{FileChange{document.path(), std::string(document.text()), std::move(after)},
                 *std::move(diff)};
}

// The candidate of a draft whose edits leave `after`: its template, summary, line and scores
// come from the singles it is made of (the lowest symptom and site scores of them).
ScoredCandidate CandidateOf(const Document& document, const Draft& draft, std::string after,
                            std::string diff) {
  ScoredCandidate scored;
  Candidate& candidate = scored.candidate;
  candidate.template_id = draft.template_id;
  candidate.family = "other";
  candidate.file = document.path();
  candidate.line = draft.line;
  candidate.summary = draft.summary;
  candidate.prior = draft.prior;
  if (!draft.parts.empty()) {
    const ScoredCandidate& first = *draft.parts.front()->scored;
    candidate.family = first.candidate.family;
    candidate.line = first.candidate.line;
    candidate.symptom_score = first.candidate.symptom_score;
    scored.site_score = first.site_score;
  }
  std::set<std::string> summaries;
  for (const Single* part : draft.parts) {
    candidate.weak |= part->scored->candidate.weak;
    if (summaries.insert(part->scored->candidate.summary).second) {
      candidate.summary +=
          Concat(candidate.summary.empty() ? "" : "; ", part->scored->candidate.summary);
    }
    candidate.symptom_score =
        std::min(candidate.symptom_score, part->scored->candidate.symptom_score);
    scored.site_score = std::min(scored.site_score, part->scored->site_score);
  }
  if (draft.template_id == "multi.same-template") {
    candidate.summary =
        Concat(candidate.summary, " (at each of ", std::to_string(draft.edits.size()), " lines)");
  }
  if (draft.template_id == "multi.same-edit") {
    candidate.summary = Concat(candidate.summary, " (the same edit at ",
                               std::to_string(draft.edits.size()), " places)");
  }
  candidate.changes.push_back(
      FileChange{document.path(), std::string(document.text()), std::move(after)});
  scored.diff = std::move(diff);
  scored.lines_changed = CountChangedLines(scored.diff);
  scored.sites_covered = draft.covered;
  scored.parts = draft.choices;
  return scored;
}

// The other 1-based lines of `document` that read exactly as line `line` does, when that line
// shows at least 16 characters.
std::vector<int> CopiesOfLine(const Document& document, int line) {
  constexpr size_t kShown = 16;
  const std::string_view text = document.lines().Line(line - 1);
  const size_t shown = std::count_if(text.begin(), text.end(), [](char c) {
    return c != ' ' && c != '\t' && c != '\r' && c != '\n';
  });
  std::vector<int> copies;
  if (shown < kShown) return copies;
  for (int other = 1; other <= document.lines().line_count(); ++other) {
    if (other != line && document.lines().Line(other - 1) == text) copies.push_back(other);
  }
  return copies;
}

}  // namespace

int SitesCovered(const Document& before, const std::string& after, const std::vector<int>& lines) {
  return Covered(before, {EditBetween(before.text(), after)}, lines);
}

std::vector<ScoredCandidate> MultiSiteCandidates(const Document& document,
                                                 const std::vector<int>& lines,
                                                 const std::vector<ScoredCandidate>& singles,
                                                 const MultiSiteOptions& options) {
  const std::set<int> site_lines(lines.begin(), lines.end());
  if (site_lines.size() < 2) return {};
  const std::vector<int> sorted_lines(site_lines.begin(), site_lines.end());
  const std::map<int, std::vector<Single>> by_line = SinglesByLine(document, site_lines, singles);
  // Each template's own answers first: on a tie with the same edit repeated, the line's own
  // answer is the better founded (stable sort below).
  std::vector<Draft> drafts = SameTemplateCombinations(document, sorted_lines, by_line);
  AddSameEdits(document, sorted_lines, by_line, drafts);
  AddMovesAndRemovals(document, sorted_lines, options, drafts);
  for (Draft& draft : Combinations(document, sorted_lines, by_line, options))
    drafts.push_back(std::move(draft));
  std::stable_sort(drafts.begin(), drafts.end(), Better);

  std::vector<ScoredCandidate> out;
  std::set<std::string> seen;
  for (const Draft& draft : drafts) {
    if (static_cast<int>(out.size()) >= options.max_candidates) break;
    std::optional<Applied> applied = Apply(document, draft.edits);
    if (!applied || !seen.insert(applied->change.after).second) continue;
    out.push_back(
        CandidateOf(document, draft, std::move(applied->change.after), std::move(applied->diff)));
  }
  return out;
}

namespace {

// The copy of `scored` (see WithSameEditAtCopies), or nullopt when it has none.
std::optional<ScoredCandidate> SameEditAtCopies(const Document& document,
                                                const ScoredCandidate& scored,
                                                const FindLineCopies& elsewhere) {
  const std::vector<FileChange>& changes = scored.candidate.changes;
  if (changes.size() != 1 || changes.front().file != document.path() ||
      changes.front().before != document.text() || changes.front().after == document.text()) {
    return std::nullopt;
  }
  const Single single{&scored, EditBetween(changes.front().before, changes.front().after)};
  const auto [first, last] = LinesOf(document, single.edit);
  bool whole_line = false;
  if (first != last || single.edit.start == single.edit.end) return std::nullopt;
  const Edit widened = WidenToWords(document.text(), single.edit);
  if (!Repeatable(document, widened, whole_line)) return std::nullopt;
  const std::string_view old_text =
      document.text().substr(widened.start, widened.end - widened.start);
  Draft draft;  // the single's template, set below; CandidateOf says nothing of the places
  draft.edits = SameEditOn(document, old_text, widened.replacement, whole_line,
                           CopiesOfLine(document, first), first, last);
  draft.edits.insert(draft.edits.begin(), widened);
  draft.parts.push_back(&single);
  draft.prior = scored.candidate.prior;
  // Each other file that holds a copy: its change and its diff.
  std::vector<FileChange> others;
  std::string other_diffs;
  size_t other_edits = 0;
  const std::vector<LineCopies> copies =
      elsewhere ? elsewhere(document, first) : std::vector<LineCopies>{};
  for (const LineCopies& copy : copies) {
    const std::vector<Edit> edits =
        SameEditOn(copy.document, old_text, widened.replacement, whole_line, copy.lines);
    if (edits.empty()) continue;
    std::optional<Applied> applied = Apply(copy.document, edits);
    if (!applied) return std::nullopt;
    others.push_back(std::move(applied->change));
    other_diffs += applied->diff;
    other_edits += edits.size();
  }
  if (draft.edits.size() == 1 && others.empty()) return std::nullopt;
  std::optional<Applied> applied = Apply(document, draft.edits);
  if (!applied) return std::nullopt;
  const size_t places = draft.edits.size() + other_edits;
  ScoredCandidate copy =
      CandidateOf(document, draft, std::move(applied->change.after), applied->diff + other_diffs);
  copy.candidate.summary =
      Concat(scored.candidate.summary, " (the same edit at ", std::to_string(places), " places)");
  for (FileChange& change : others) copy.candidate.changes.push_back(std::move(change));
  copy.candidate.template_id = scored.candidate.template_id;
  copy.candidate.bindings = scored.candidate.bindings;
  copy.candidate.prior = scored.candidate.prior;
  copy.candidate.weak = scored.candidate.weak;
  copy.copies = static_cast<int>(places);
  return copy;
}

}  // namespace

std::vector<ScoredCandidate> WithSameEditAtCopies(const Document& document,
                                                  std::vector<ScoredCandidate> singles,
                                                  const FindLineCopies& elsewhere) {
  std::vector<ScoredCandidate> out;
  out.reserve(singles.size());
  for (ScoredCandidate& scored : singles) {
    if (std::optional<ScoredCandidate> copy = SameEditAtCopies(document, scored, elsewhere))
      out.push_back(*std::move(copy));
    out.push_back(std::move(scored));
  }
  return out;
}

}  // namespace smallfix
