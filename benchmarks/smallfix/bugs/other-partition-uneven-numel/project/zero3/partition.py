"""ZeRO stage 3 style parameter partitioning.

Every parameter is flattened, padded at the end to a multiple of the world
size, and split into equal contiguous shards; rank r keeps shard r. Before
use, the full parameter is rebuilt with an all-gather of the shards and the
padding is dropped.
"""
from dataclasses import dataclass

import torch
import torch.distributed as dist
import torch.nn.functional as F


@dataclass
class ParamShard:
    data: torch.Tensor          # this rank's shard, 1-D, partition_size elements
    shape: torch.Size           # shape of the full parameter
    numel: int                  # elements of the full parameter (without padding)


def partition_size(numel, world_size):
    return numel // world_size


def partition_param(param, rank, world_size):
    numel = param.numel()
    size = partition_size(numel, world_size)
    padded = F.pad(param.detach().reshape(-1), (0, size * world_size - numel))
    shard = padded[rank * size:(rank + 1) * size].clone()
    return ParamShard(shard, param.shape, numel)


def gather_param(shard, group=None):
    world_size = dist.get_world_size(group)
    parts = [torch.empty_like(shard.data) for _ in range(world_size)]
    dist.all_gather(parts, shard.data, group=group)
    return torch.cat(parts)[:shard.numel].view(shard.shape)
