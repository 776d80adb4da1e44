import torch

from zero3 import gather_param, partition_param


def test_shard_contents_even(world):
    rank, world_size = world
    p = torch.arange(8.0).view(2, 4)
    shard = partition_param(p, rank, world_size)
    per = 8 // world_size
    assert torch.equal(shard.data, torch.arange(8.0)[rank * per:(rank + 1) * per])


def test_roundtrip_even_sized_params(world):
    rank, world_size = world
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 2)
    for p in model.parameters():
        assert torch.equal(gather_param(partition_param(p, rank, world_size)), p)


def test_roundtrip_odd_sized_params(world):
    rank, world_size = world
    torch.manual_seed(0)
    model = torch.nn.Linear(7, 1)
    for p in model.parameters():
        full = gather_param(partition_param(p, rank, world_size))
        assert full.shape == p.shape
        assert torch.equal(full, p)
