import torch
from torch import nn

from mptensor import parallel_state
from mptensor.layers import ParallelMLP, RowParallelLinear


def _reference(seed=0, hidden=4):
    torch.manual_seed(seed)
    return nn.Linear(hidden, 4 * hidden), nn.Linear(4 * hidden, hidden)


def test_groups_cover_world(dist_init):
    rank, world_size = dist_init
    parallel_state.initialize_model_parallel(world_size)
    assert parallel_state.get_tensor_model_parallel_world_size() == world_size
    assert parallel_state.get_tensor_model_parallel_rank() == rank


def test_mlp_full_tensor_parallel(dist_init):
    _, world_size = dist_init
    parallel_state.initialize_model_parallel(world_size)
    fc1, fc2 = _reference()
    x = torch.randn(3, 4)
    expected = fc2(torch.nn.functional.gelu(fc1(x)))
    assert torch.allclose(ParallelMLP(fc1, fc2)(x), expected, atol=1e-5)


def test_row_parallel_without_tensor_parallelism(dist_init):
    # pure data parallelism: every rank holds the whole layer
    parallel_state.initialize_model_parallel(1)
    _, fc2 = _reference()
    x = torch.randn(2, 16)
    layer = RowParallelLinear(fc2.weight.detach(), fc2.bias.detach())
    assert torch.allclose(layer(x), fc2(x), atol=1e-5)
