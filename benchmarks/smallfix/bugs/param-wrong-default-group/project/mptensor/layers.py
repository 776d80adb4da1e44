"""Column- and row-parallel linear layers (Megatron-style MLP split)."""
import torch
import torch.nn.functional as F
from torch import nn

from mptensor import parallel_state
from mptensor.mappings import copy_to_tensor_model_parallel_region, reduce_from_tensor_model_parallel_region


def _shard(master, dim):
    world = parallel_state.get_tensor_model_parallel_world_size()
    rank = parallel_state.get_tensor_model_parallel_rank()
    return master.chunk(world, dim=dim)[rank].clone()


class ColumnParallelLinear(nn.Module):
    """Y = XA with A split along its output dimension; the output stays split."""

    def __init__(self, master_weight, master_bias):
        super().__init__()
        self.weight = nn.Parameter(_shard(master_weight, 0))
        self.bias = nn.Parameter(_shard(master_bias, 0))

    def forward(self, x):
        x = copy_to_tensor_model_parallel_region(x)
        return F.linear(x, self.weight, self.bias)


class RowParallelLinear(nn.Module):
    """Y = XA with A split along its input dimension; partial outputs are summed."""

    def __init__(self, master_weight, master_bias):
        super().__init__()
        self.weight = nn.Parameter(_shard(master_weight, 1))
        self.bias = nn.Parameter(master_bias.clone())

    def forward(self, x):
        partial = F.linear(x, self.weight)
        return reduce_from_tensor_model_parallel_region(partial) + self.bias


class ParallelMLP(nn.Module):
    def __init__(self, dense_h_to_4h, dense_4h_to_h):
        super().__init__()
        self.fc1 = ColumnParallelLinear(dense_h_to_4h.weight.detach(), dense_h_to_4h.bias.detach())
        self.fc2 = RowParallelLinear(dense_4h_to_h.weight.detach(), dense_4h_to_h.bias.detach())

    def forward(self, x):
        return self.fc2(torch.nn.functional.gelu(self.fc1(x)))
