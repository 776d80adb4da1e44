"""Megatron-style tensor-parallel linear layers (weights split across the TP group)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from fastzero.comm import wrappers as comm


def divide(numerator, denominator):
    assert numerator % denominator == 0, f"{numerator} is not divisible by {denominator}"
    return numerator // denominator


class ColumnParallelLinear(nn.Module):
    """Y = XA + b with A split by columns: each rank holds out_features / tp columns."""

    def __init__(self, in_features, out_features, tp_size=1, bias=True, dtype=torch.float32):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.out_per_partition = divide(out_features, tp_size)
        self.weight = nn.Parameter(torch.randn(self.out_per_partition, in_features, dtype=dtype) * 0.02)
        self.bias = nn.Parameter(torch.zeros(out_features, dtype=dtype)) if bias else None

    def forward(self, x):
        out = F.linear(x, self.weight)
        if self.bias is not None:
            out = out + self.bias
        return out


class RowParallelLinear(nn.Module):
    """Y = XA + b with A split by rows: input is already split along the last dim."""

    def __init__(self, in_features, out_features, tp_size=1, bias=True, group=None):
        super().__init__()
        self.in_per_partition = divide(in_features, tp_size)
        self.group = group
        self.weight = nn.Parameter(torch.randn(out_features, in_features) * 0.02)
        self.bias = nn.Parameter(torch.zeros(out_features)) if bias else None

    def forward(self, x):
        out = torch.matmul(x, self.weight.t())
        if comm.get_world_size(self.group) > 1:
            comm.all_reduce(out, group=self.group)
        if self.bias is not None:
            out += self.bias
        return out


class ParallelMLP(nn.Module):
    def __init__(self, hidden, tp_size=1, dtype=torch.float32, group=None):
        super().__init__()
        self.fc1 = ColumnParallelLinear(hidden, 4 * hidden, tp_size=tp_size, bias=False, dtype=dtype)
        self.fc2 = RowParallelLinear(4 * hidden, hidden, tp_size=tp_size, group=group)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


def build_layers(cfg, in_features, **kwargs):
    hidden = cfg.get("hidden_size", in_features)
    return ColumnParallelLinear(in_features, hidden, in_features=hidden, **kwargs)
