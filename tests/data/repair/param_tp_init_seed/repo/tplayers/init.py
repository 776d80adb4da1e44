"""Initialization of weight shards.

A sharded weight must equal the corresponding slice of the weight an unsharded layer would
get, whatever the tensor-parallel size: every rank draws the FULL weight from a generator
seeded with the same `seed` and keeps only its own block.
"""
import math

import torch


def init_shard_(shard, full_shape, dim, rank, world_size, seed):
    """Fill ``shard`` with this rank's block (along ``dim``) of a full weight drawn from ``seed``."""
    generator = torch.Generator().manual_seed(seed)
    fan_in = full_shape[1]
    bound = 1.0 / math.sqrt(fan_in)
    full = torch.empty(full_shape).uniform_(-bound, bound, generator=generator)
    block = full_shape[dim] // world_size
    with torch.no_grad():
        shard.copy_(full.narrow(dim, rank * block, block))
    return shard
