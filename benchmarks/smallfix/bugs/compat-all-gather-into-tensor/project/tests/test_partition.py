import torch
from torch import nn

from zero3.partition import GatheredParameters, partition_param


def test_partition_keeps_local_shard(dist_init):
    rank, world_size = dist_init
    p = nn.Parameter(torch.arange(5.0))
    partition_param(p)
    shard = (5 + world_size - 1) // world_size
    assert p.ds_tensor.numel() == shard
    assert p.numel() == 0
    full = torch.zeros(shard * world_size)
    full[:5] = torch.arange(5.0)
    assert torch.equal(p.ds_tensor, full[rank * shard:(rank + 1) * shard])


def test_gathered_parameters_restore_full_weights(dist_init):
    torch.manual_seed(0)
    layer = nn.Linear(3, 5)
    expected = {n: p.detach().clone() for n, p in layer.named_parameters()}
    for p in layer.parameters():
        partition_param(p)
    with GatheredParameters(layer.parameters()):
        for name, p in layer.named_parameters():
            assert torch.equal(p.data, expected[name])
        out = layer(torch.ones(2, 3))
    assert out.shape == (2, 5)
    assert layer.weight.numel() == 0
