#ifndef SMALLFIX_ENGINE_REPAIR_MULTI_SITE_CANDIDATES_H_
#define SMALLFIX_ENGINE_REPAIR_MULTI_SITE_CANDIDATES_H_

#include <functional>
#include <vector>

#include "engine/rank/ranker.h"
#include "engine/source/document.h"

namespace smallfix {

struct MultiSiteOptions {
  // A site's best this many candidates take part in combinations ("multi.combined"): with
  // three each, two sites give at most 9 pairs, and a beam keeps larger sets in bounds.
  int per_site = 3;
  // Multi-site candidates kept in all, best first.
  int max_candidates = 12;
  // Priors of a statement move (StatementMoves) and of removing the sites' statements
  // (SiteStatementRemovals), which no template's prior covers: their precision on realfix's
  // dev split, smoothed as scripts/realfix_priors.py does (2026-11-23, all candidates kept:
  // 2 of 27 moves that follow the data flow (StatementMove::data_flow), 5 of 122 other moves,
  // 5 of 69 removals were the fix).
  double move_flow_prior = 0.07;
  double move_prior = 0.041;
  double remove_prior = 0.07;
};

// For sites that are all lines of one fix (perfect localization at each line a fix changes),
// candidates that edit several of them at once, since a template edits one statement:
//  - "multi.same-edit": a candidate's change at its site, widened to whole words
//    (`train_loop` -> `fit_loop`, not `train` -> `fit`), made also at every other site line
//    that holds the old text: one rename, one operator change or one dropped argument,
//    everywhere the fix's lines repeat it;
//  - "multi.same-template": one template's first candidate at each site where it has one
//    (each line's own answer: `weight` -> `fc1_weight` here, `fc2_weight` there), one choice
//    whose prior is its least likely part's;
//  - "multi.move-statement": a statement whose lines are all sites moved before the
//    statement on another site line, or to the end of the block above a blank site line
//    (StatementMoves);
//  - "multi.remove-statements": every statement whose lines are all sites removed;
//  - "multi.combined": one of the best `per_site` candidates of each of two or more sites,
//    where their edits do not overlap.
// `lines` are the sites' 1-based lines in `document`; `singles` are the candidates generated
// at them (best first within a site; others are ignored). Results are ranked by the number
// of sites they edit (ScoredCandidate::sites_covered), then by the fewest independent choices
// (ScoredCandidate::parts: one for a repeated edit or a move, one more than its distinct
// templates for a combination), then by the product of their
// parts' priors (the same edit repeated is one choice: its prior), and never leave the file with
// more syntax errors than it had. Their `diff` and `lines_changed` are set.
std::vector<ScoredCandidate> MultiSiteCandidates(const Document& document,
                                                 const std::vector<int>& lines,
                                                 const std::vector<ScoredCandidate>& singles,
                                                 const MultiSiteOptions& options = {});

// Lines of another file that copy a line: the file and those 1-based lines of it.
struct LineCopies {
  Document document;
  std::vector<int> lines;
};
// The copies in other files of line `line` (1-based) of `document`.
using FindLineCopies = std::function<std::vector<LineCopies>(const Document& document, int line)>;

// For a repair with no fix lines given: `singles` with, right before each that edits one line
// of `document` (not an insertion), that edit made also on every other line of the file that
// reads exactly the same, indentation included, and shows at least 16 characters (the same
// method body in two classes, not a `return x`), and on the lines `elsewhere` finds in other
// files (a class copied between two packages): a bug in copied code is in each copy, and its fix
// is made in each. The copy keeps the single's template, prior and scores, says "the same edit
// at N places" and has ScoredCandidate::copies = N; ranked, it ties with its single and keeps
// its place before it.
std::vector<ScoredCandidate> WithSameEditAtCopies(const Document& document,
                                                  std::vector<ScoredCandidate> singles,
                                                  const FindLineCopies& elsewhere = nullptr);

// How many of `lines` (1-based) the change from `before` to `after` touches: a line counts
// when a changed byte lies on it, or an insertion starts or ends there.
int SitesCovered(const Document& before, const std::string& after, const std::vector<int>& lines);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_MULTI_SITE_CANDIDATES_H_
