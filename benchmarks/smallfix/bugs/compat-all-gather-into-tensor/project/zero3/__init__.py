"""ZeRO stage 3 style parameter partitioning: each rank stores 1/world_size of every parameter."""
