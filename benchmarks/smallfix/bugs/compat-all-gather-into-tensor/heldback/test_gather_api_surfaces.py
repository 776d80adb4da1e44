"""The gather must work on old (torch 1.12) and new (torch 2.x) collective APIs."""
import pytest
import torch
import torch.distributed as dist
from torch import nn

from zero3.comm import allgather_into_flat
from zero3.partition import GatheredParameters, partition_param


def _emulated(output_tensor, input_tensor, group=None, async_op=False):
    chunks = list(output_tensor.chunk(dist.get_world_size(group=group)))
    gathered = [torch.empty_like(input_tensor) for _ in chunks]
    dist.all_gather(gathered, input_tensor, group=group)
    for chunk, part in zip(chunks, gathered):
        chunk.copy_(part)


@pytest.fixture(params=["torch-1.12", "torch-2.x"])
def api_surface(request, monkeypatch):
    if request.param == "torch-1.12":
        monkeypatch.delattr(dist, "all_gather_into_tensor", raising=False)
        monkeypatch.setattr(dist, "_all_gather_base", _emulated)
    else:
        monkeypatch.setattr(dist, "all_gather_into_tensor", _emulated)
        monkeypatch.delattr(dist, "_all_gather_base", raising=False)
    return request.param


def test_allgather_into_flat(dist_init, api_surface):
    rank, world_size = dist_init
    out = torch.empty(2 * world_size)
    allgather_into_flat(out, torch.tensor([rank, 10.0 + rank]))
    expected = torch.tensor([[r, 10.0 + r] for r in range(world_size)]).reshape(-1)
    assert torch.equal(out, expected)


def test_forward_with_gathered_params(dist_init, api_surface):
    torch.manual_seed(1)
    layer = nn.Linear(4, 3)
    x = torch.randn(2, 4)
    expected = layer(x).detach()
    for p in layer.parameters():
        partition_param(p)
    with GatheredParameters(layer.parameters()):
        assert torch.allclose(layer(x), expected)
