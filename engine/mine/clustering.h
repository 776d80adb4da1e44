#ifndef SMALLFIX_ENGINE_MINE_CLUSTERING_H_
#define SMALLFIX_ENGINE_MINE_CLUSTERING_H_

#include <string>
#include <vector>

#include "engine/mine/edit_shape.h"

namespace smallfix::mine {

// Hunks with the same abstract edit shape.
struct Cluster {
  std::string shape;
  std::vector<HunkShape> hunks;  // in the order the walk met them (newest commit first)
  int commits = 0;               // distinct commits among the hunks
};

// Groups hunks by shape; largest clusters first (ties: more commits, then shape text).
std::vector<Cluster> ClusterHunks(std::vector<HunkShape> hunks);

}  // namespace smallfix::mine

#endif  // SMALLFIX_ENGINE_MINE_CLUSTERING_H_
