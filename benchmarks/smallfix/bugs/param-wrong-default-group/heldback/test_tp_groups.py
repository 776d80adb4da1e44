import torch
from torch import nn

from mptensor import parallel_state
from mptensor.layers import ParallelMLP
from mptensor.mappings import _reduce


def _mlp(seed):
    torch.manual_seed(seed)
    return nn.Linear(4, 16), nn.Linear(16, 4)


def test_mlp_grads_data_parallel_only(dist_init):
    parallel_state.initialize_model_parallel(1)
    fc1, fc2 = _mlp(5)
    x = torch.randn(3, 4, requires_grad=True)
    fc2(torch.nn.functional.gelu(fc1(x))).pow(2).sum().backward()
    ref = x.grad.clone()
    x.grad = None
    mlp = ParallelMLP(fc1, fc2)
    mlp(x).pow(2).sum().backward()
    assert torch.allclose(x.grad, ref, atol=1e-5)
    assert torch.allclose(mlp.fc1.weight.grad, fc1.weight.grad, atol=1e-5)


def test_mlp_grads_tensor_parallel(dist_init):
    _, world_size = dist_init
    parallel_state.initialize_model_parallel(world_size)
    fc1, fc2 = _mlp(6)
    x = torch.randn(2, 4, requires_grad=True)
    fc2(torch.nn.functional.gelu(fc1(x))).sum().backward()
    ref = x.grad.clone()
    x.grad = None
    ParallelMLP(fc1, fc2)(x).sum().backward()
    assert torch.allclose(x.grad, ref, atol=1e-5)


def test_default_group_is_tensor_parallel(dist_init):
    rank, _ = dist_init
    parallel_state.initialize_model_parallel(1)
    t = torch.full((2,), float(rank + 1))
    assert torch.equal(_reduce(t), torch.full((2,), float(rank + 1)))
