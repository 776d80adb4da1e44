import torch

from fp16util import DynamicLossScaler


def test_nan_on_rank0_only_is_seen_by_all(world):
    rank, world_size = world
    p = torch.nn.Parameter(torch.zeros(3))
    p.grad = torch.tensor([float("nan"), 0.0, 0.0]) if rank == 0 else torch.zeros(3)
    assert DynamicLossScaler().has_overflow([p]) is True


def test_all_finite_is_no_overflow(world):
    rank, _ = world
    p = torch.nn.Parameter(torch.zeros(3))
    p.grad = torch.full((3,), float(rank))
    assert DynamicLossScaler().has_overflow([p]) is False
