#include "engine/mine/clustering.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"

namespace smallfix::mine {

std::vector<Cluster> ClusterHunks(std::vector<HunkShape> hunks) {
  std::vector<Cluster> clusters;
  absl::flat_hash_map<std::string, size_t> index;
  for (HunkShape& hunk : hunks) {
    auto [it, added] = index.try_emplace(hunk.shape, clusters.size());
    if (added) clusters.push_back(Cluster{hunk.shape, {}, 0});
    clusters[it->second].hunks.push_back(std::move(hunk));
  }
  for (Cluster& cluster : clusters) {
    absl::flat_hash_set<std::string> shas;
    for (const HunkShape& hunk : cluster.hunks) shas.insert(hunk.sha);
    cluster.commits = static_cast<int>(shas.size());
  }
  std::stable_sort(clusters.begin(), clusters.end(), [](const Cluster& a, const Cluster& b) {
    if (a.hunks.size() != b.hunks.size()) return a.hunks.size() > b.hunks.size();
    if (a.commits != b.commits) return a.commits > b.commits;
    return a.shape < b.shape;
  });
  return clusters;
}

}  // namespace smallfix::mine
