#ifndef SMALLFIX_ENGINE_MINE_PROPOSAL_WRITER_H_
#define SMALLFIX_ENGINE_MINE_PROPOSAL_WRITER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/mine/clustering.h"

namespace smallfix::mine {

// The draft template YAML for one cluster (family generic, id generic.mined-<rank>), in the
// format of templates/README.md. Its summary starts with "DRAFT" and a comment says it is
// unreviewed. The examples are minimal code made here from the abstract shape (placeholders
// replaced by plain names a, b, c, numbers by 1, strings by "x"), never a commit's own code.
// The rewrite is filled in where the shape says it plainly (an operator change, a statement
// inserted); elsewhere it is a no-op that a person must replace.
std::string DraftTemplate(const Cluster& cluster, int rank);

// Writes DraftTemplate of every cluster with at least two hunks into `dir` (created when
// missing) as mined_<rank>.yaml; returns the files written.
absl::StatusOr<std::vector<std::string>> WriteProposals(const std::vector<Cluster>& clusters,
                                                        const std::string& dir);

}  // namespace smallfix::mine

#endif  // SMALLFIX_ENGINE_MINE_PROPOSAL_WRITER_H_
