import torch

from zero3 import gather_param, partition_param


def test_shards_are_equal_sized_and_padded_with_zeros(world):
    rank, world_size = world
    p = torch.arange(1.0, 6.0)  # 5 elements
    shard = partition_param(p, rank, world_size)
    size = -(-5 // world_size)
    assert shard.data.numel() == size
    expected = torch.cat([p, torch.zeros(size * world_size - 5)])[rank * size:(rank + 1) * size]
    assert torch.equal(shard.data, expected)


def test_param_smaller_than_world(world):
    rank, world_size = world
    p = torch.tensor([3.5])
    full = gather_param(partition_param(p, rank, world_size))
    assert torch.equal(full, p)
