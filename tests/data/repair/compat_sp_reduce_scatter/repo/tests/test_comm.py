import torch

from seqpar import gather_along_first_dim, reduce_scatter_along_first_dim


def rank_input(rank, world_size):
    # Every rank holds a partial sum of the full sequence: 4 positions per rank, hidden 3.
    return torch.arange(4 * world_size * 3, dtype=torch.float32).view(4 * world_size, 3) * (rank + 1)


def test_gather_restores_the_sequence(dist_env):
    rank, world_size = dist_env
    shard = torch.full((2, 3), float(rank))
    full = gather_along_first_dim(shard)
    assert full.shape == (2 * world_size, 3)
    for r in range(world_size):
        assert torch.equal(full[2 * r:2 * r + 2], torch.full((2, 3), float(r)))


def test_reduce_scatter_sums_and_shards(dist_env):
    rank, world_size = dist_env
    out = reduce_scatter_along_first_dim(rank_input(rank, world_size))
    total = sum(rank_input(r, world_size) for r in range(world_size))
    assert torch.equal(out, total[4 * rank:4 * rank + 4])
