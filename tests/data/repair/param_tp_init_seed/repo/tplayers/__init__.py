"""Tensor-parallel linear layers (Megatron style), runnable on one process for tests."""
from tplayers.init import init_shard_
from tplayers.layers import ColumnParallelLinear, RowParallelLinear

__all__ = ["ColumnParallelLinear", "RowParallelLinear", "init_shard_"]
