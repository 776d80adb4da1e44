import torch

from ddplite import allreduce_gradients


def test_mixed_dtypes_are_averaged(world):
    rank, world_size = world
    a = torch.nn.Parameter(torch.zeros(3))
    b = torch.nn.Parameter(torch.zeros(2, dtype=torch.float64))
    a.grad = torch.full((3,), float(rank))
    b.grad = torch.full((2,), 2.0 * (rank + 1), dtype=torch.float64)
    model = torch.nn.Module()
    model.a, model.b = a, b
    allreduce_gradients(model)
    mean_rank = sum(range(world_size)) / world_size
    assert torch.allclose(a.grad, torch.full((3,), mean_rank))
    assert torch.allclose(b.grad, torch.full((2,), 2.0 * (mean_rank + 1), dtype=torch.float64))


def test_identical_grads_are_unchanged(world):
    p = torch.nn.Parameter(torch.zeros(4))
    p.grad = torch.arange(4.0)
    model = torch.nn.Module()
    model.p = p
    allreduce_gradients(model)
    assert torch.equal(p.grad, torch.arange(4.0))
