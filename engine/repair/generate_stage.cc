// The second stage of a repair: the candidates at the sites.
#include "engine/repair/candidate_generator.h"
#include "engine/repair/repair_stages.h"

namespace smallfix {

absl::StatusOr<RepairResources> LoadResources(const RepairRequest& request) {
  absl::StatusOr<Catalogue> catalogue = Catalogue::Load(request.templates_dir);
  if (!catalogue.ok()) return catalogue.status();
  absl::StatusOr<RepoIndex> index = RepoIndex::Build(request.repo);
  if (!index.ok()) return index.status();
  const bool reads_facts = CatalogueReadsFacts(*catalogue);
  return RepairResources{*std::move(catalogue), *std::move(index), reads_facts};
}

absl::StatusOr<std::vector<ScoredCandidate>> GenerateAtSites(const RepairRequest& request,
                                                             const std::vector<Site>& sites,
                                                             const Symptom& symptom,
                                                             const RepairResources& resources) {
  absl::StatusOr<std::vector<ScoredCandidate>> candidates = GenerateCandidates(
      request.repo, sites, symptom, resources.catalogue, &resources.index,
      GenerateOptions{.max_per_site = request.max_candidates, .one_fix = request.one_fix});
  if (!candidates.ok()) return candidates.status();
  if (request.propose) {
    for (ScoredCandidate& extra : request.propose(sites, *candidates))
      candidates->push_back(std::move(extra));
  }
  return candidates;
}

}  // namespace smallfix
