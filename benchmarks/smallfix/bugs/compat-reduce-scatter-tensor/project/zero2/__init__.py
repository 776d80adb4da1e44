"""ZeRO stage 2 style gradient partitioning: each rank keeps the averaged gradients of its own shard."""
