"""Our CI runs the tests on CPU with gloo, under the oldest torch we support (1.12).

torch 1.12 has no ``dist.all_gather_into_tensor``; it only has the private
``dist._all_gather_base`` (NCCL only there, so it is emulated here for gloo).
"""
import pytest
import torch
import torch.distributed as dist


def _emulated_all_gather_base(output_tensor, input_tensor, group=None, async_op=False):
    chunks = list(output_tensor.chunk(dist.get_world_size(group=group)))
    gathered = [torch.empty_like(input_tensor) for _ in chunks]
    dist.all_gather(gathered, input_tensor, group=group)
    for chunk, part in zip(chunks, gathered):
        chunk.copy_(part)


@pytest.fixture(autouse=True)
def torch_1_12_collectives(monkeypatch):
    monkeypatch.delattr(dist, "all_gather_into_tensor", raising=False)
    monkeypatch.setattr(dist, "_all_gather_base", _emulated_all_gather_base)
