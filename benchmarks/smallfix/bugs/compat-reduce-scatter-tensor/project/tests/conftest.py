"""CPU CI runs on gloo with the oldest supported torch release (1.12).

torch 1.12 only has the private ``dist._reduce_scatter_base`` (no
``dist.reduce_scatter_tensor``), and gloo implements neither, so the old
collective is emulated here with an all-reduce.
"""
import pytest
import torch.distributed as dist


def _emulated_reduce_scatter_base(output, input, op=dist.ReduceOp.SUM, group=None, async_op=False):
    full = input.clone()
    dist.all_reduce(full, op=op, group=group)
    output.copy_(full.chunk(dist.get_world_size(group=group))[dist.get_rank(group=group)])


@pytest.fixture(autouse=True)
def torch_1_12_collectives(monkeypatch):
    monkeypatch.delattr(dist, "reduce_scatter_tensor", raising=False)
    monkeypatch.setattr(dist, "_reduce_scatter_base", _emulated_reduce_scatter_base)
