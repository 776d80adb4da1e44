import torch
from torch import nn

from zero2.grad_partition import GradientPartitioner


def test_shard_ranges(dist_init):
    rank, world_size = dist_init
    part = GradientPartitioner([nn.Parameter(torch.zeros(7))])
    start, end = part.shard_range()
    shard = (7 + world_size - 1) // world_size
    assert start == min(rank * shard, 7)
    assert end - start <= shard


def test_reduce_scatter_gradients(dist_init):
    rank, world_size = dist_init
    model = nn.Linear(3, 2)
    for p in model.parameters():
        p.grad = torch.full_like(p, float(rank + 1))
    part = GradientPartitioner(model.parameters())
    shard = part.reduce_scatter_gradients()
    start, end = part.shard_range()
    assert shard.numel() == end - start
    assert torch.allclose(shard, torch.full((end - start,), (world_size + 1) / 2))
