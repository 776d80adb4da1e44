#ifndef SMALLFIX_ENGINE_REPAIR_CANDIDATE_GENERATOR_H_
#define SMALLFIX_ENGINE_REPAIR_CANDIDATE_GENERATOR_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/index/repo_index.h"
#include "engine/patterns/catalogue.h"
#include "engine/patterns/match.h"
#include "engine/rank/ranker.h"

namespace smallfix {

// A place to repair: a repo-relative file and a 1-based line, with localization's score.
struct RepairSite {
  std::string file;
  int line = 0;
  double score = 1.0;
};

// Matches every template of `catalogue` at every site and returns the candidates, each
// with its diff and size; candidates whose results are the same syntax tree as an earlier
// one (formatting aside) are dropped. Files are read from `repo_root`; the repo is never
// written. A site whose file cannot be read is an error naming it.
absl::StatusOr<std::vector<ScoredCandidate>> GenerateCandidates(const std::string& repo_root,
                                                                const std::vector<RepairSite>& sites,
                                                                const SymptomInput& symptom,
                                                                const Catalogue& catalogue,
                                                                const RepoIndex* index);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_CANDIDATE_GENERATOR_H_
