import pytest
import torch
import torch.distributed as dist
from torch import nn

from zero2.grad_partition import GradientPartitioner


def _emulated(output, input, op=dist.ReduceOp.SUM, group=None, async_op=False):
    full = input.clone()
    dist.all_reduce(full, op=op, group=group)
    output.copy_(full.chunk(dist.get_world_size(group=group))[dist.get_rank(group=group)])


@pytest.fixture(params=["torch-1.12", "torch-2.x"])
def api_surface(request, monkeypatch):
    if request.param == "torch-1.12":
        monkeypatch.delattr(dist, "reduce_scatter_tensor", raising=False)
        monkeypatch.setattr(dist, "_reduce_scatter_base", _emulated)
    else:
        monkeypatch.setattr(dist, "reduce_scatter_tensor", _emulated)
        monkeypatch.delattr(dist, "_reduce_scatter_base", raising=False)
    return request.param


def test_shards_match_full_average(dist_init, api_surface):
    rank, world_size = dist_init
    torch.manual_seed(rank)
    params = [nn.Parameter(torch.zeros(5)), nn.Parameter(torch.zeros(2, 2))]
    for p in params:
        p.grad = torch.randn_like(p)
    local = torch.cat([p.grad.reshape(-1) for p in params])
    everyone = [torch.empty_like(local) for _ in range(world_size)]
    dist.all_gather(everyone, local)
    expected = torch.stack(everyone).mean(0)
    part = GradientPartitioner(params)
    shard = part.reduce_scatter_gradients()
    start, end = part.shard_range()
    assert torch.allclose(shard, expected[start:end], atol=1e-6)


def test_missing_grads_count_as_zero(dist_init, api_surface):
    _, world_size = dist_init
    a, b = nn.Parameter(torch.zeros(3)), nn.Parameter(torch.zeros(3))
    a.grad = torch.ones(3)
    part = GradientPartitioner([a, b])
    shard = part.reduce_scatter_gradients()
    start, end = part.shard_range()
    expected = torch.cat([torch.ones(3), torch.zeros(3)])[start:end]
    assert torch.allclose(shard, expected)
