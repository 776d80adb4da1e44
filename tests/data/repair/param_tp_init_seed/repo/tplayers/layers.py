"""Column- and row-parallel linear layers.

ColumnParallelLinear splits the output features over the tensor-parallel ranks, RowParallelLinear
the input features. The collectives that join the shards are left to the caller, so the layers
can be tested on one process by building every rank's shard.
"""
import torch
from torch import nn

from tplayers.init import init_shard_


class ColumnParallelLinear(nn.Module):
    def __init__(self, in_features, out_features, rank=0, world_size=1, seed=1234, bias=True):
        super().__init__()
        assert out_features % world_size == 0, "out_features must divide by the tensor-parallel size"
        self.rank, self.world_size = rank, world_size
        self.weight = nn.Parameter(torch.empty(out_features // world_size, in_features))
        init_shard_(
            self.weight,
            (out_features, in_features),
            0,
            rank,
            world_size,
        )
        self.bias = nn.Parameter(torch.zeros(out_features // world_size)) if bias else None

    def forward(self, x):
        return nn.functional.linear(x, self.weight, self.bias)


class RowParallelLinear(nn.Module):
    def __init__(self, in_features, out_features, rank=0, world_size=1, seed=1234):
        super().__init__()
        assert in_features % world_size == 0, "in_features must divide by the tensor-parallel size"
        self.rank, self.world_size = rank, world_size
        self.weight = nn.Parameter(torch.empty(out_features, in_features // world_size))
        init_shard_(self.weight, (out_features, in_features), 1, rank, world_size, seed)

    def forward(self, x):
        # The partial sums of the ranks are added by an all-reduce in the caller.
        return nn.functional.linear(x, self.weight)
