"""A per-node launcher: works out the ranks of this node and the environment of each worker."""
