#ifndef SMALLFIX_ENGINE_RANK_RANKER_H_
#define SMALLFIX_ENGINE_RANK_RANKER_H_

#include <vector>

#include "engine/patterns/match.h"

namespace smallfix {

// A candidate with what ranking needs to know about it.
struct ScoredCandidate {
  Candidate candidate;
  double site_score = 1.0;  // from localization (1 with --site)
  int lines_changed = 0;    // added + removed lines over all files
  std::string diff;         // unified diff over all files, `git apply`-able at the repo root
  double score = 0;         // set by a Ranker, higher first
  // With sites that are lines of one fix (GenerateOptions::one_fix): how many of them the
  // candidate edits; candidates that edit more of them rank first. 0: not counted.
  int sites_covered = 0;
  // Independent choices the candidate makes (a multi.combined candidate: one per distinct
  // template it combines, and one for their matches); among candidates that edit as many
  // sites, fewer rank first.
  int parts = 1;
  // Places the one edit is made (SameEditAtCopies: the same line in each copy of copied code;
  // a `fix-all` template's Candidate::places); the ranker counts the size of one.
  int copies = 1;
};

// Orders candidates best first. The heuristic ranker is the default; an LLM ranker can
// re-order its top candidates.
class Ranker {
 public:
  virtual ~Ranker() = default;
  virtual void Rank(std::vector<ScoredCandidate>& candidates) const = 0;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_RANK_RANKER_H_
