import torch
from torch import nn

from tplayers import ColumnParallelLinear, RowParallelLinear, init_shard_


def dense_weight(out_features, in_features, seed):
    return init_shard_(torch.empty(out_features, in_features), (out_features, in_features), 0, 0, 1, seed)


def test_init_shard_blocks_tile_the_full_weight():
    full = dense_weight(6, 4, seed=7)
    blocks = [init_shard_(torch.empty(6, 2), (6, 4), 1, r, 2, 7) for r in range(2)]
    assert torch.equal(torch.cat(blocks, dim=1), full)


def test_row_parallel_matches_dense():
    torch.manual_seed(0)
    x = torch.randn(3, 8)
    shards = [RowParallelLinear(8, 4, rank=r, world_size=2, seed=11) for r in range(2)]
    partial = sum(layer(chunk) for layer, chunk in zip(shards, x.chunk(2, dim=1)))
    expected = nn.functional.linear(x, dense_weight(4, 8, seed=11))
    assert torch.allclose(partial, expected, atol=1e-6)


def test_column_parallel_matches_dense():
    torch.manual_seed(0)
    x = torch.randn(3, 4)
    shards = [ColumnParallelLinear(4, 6, rank=r, world_size=2, seed=5) for r in range(2)]
    out = torch.cat([layer(x) for layer in shards], dim=-1)
    expected = nn.functional.linear(x, dense_weight(6, 4, seed=5))
    assert torch.allclose(out, expected, atol=1e-6)
