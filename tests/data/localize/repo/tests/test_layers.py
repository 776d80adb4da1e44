import torch

from fastzero.model.parallel_layers import (ColumnParallelLinear, ParallelMLP, RowParallelLinear,
                                            build_layers)


def test_column_parallel_tp2():
    layer = ColumnParallelLinear(8, 16, tp_size=2)
    out = layer(torch.randn(3, 8))
    assert out.shape == (3, 8)


def test_row_parallel_tp2():
    layer = RowParallelLinear(16, 8, tp_size=2)
    out = layer(torch.randn(3, 8))
    assert out.shape == (3, 8)


def test_mlp_tp2():
    mlp = ParallelMLP(8, tp_size=2)
    assert mlp(torch.randn(2, 5, 8)).shape == (2, 5, 8)


def test_mlp_fp16_weights():
    mlp = ParallelMLP(8, dtype=torch.float16)
    assert mlp(torch.randn(2, 8)).shape == (2, 8)


def test_build_layers():
    layer = build_layers({"hidden_size": 16}, 8, tp_size=1)
    assert layer.out_features == 16
