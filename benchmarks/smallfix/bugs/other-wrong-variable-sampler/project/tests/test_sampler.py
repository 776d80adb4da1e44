import pytest
import torch.distributed as dist

from msampler import PretrainingSampler


def test_single_rank_in_order():
    s = PretrainingSampler(7, 2, micro_batch_size=2, data_parallel_rank=0, data_parallel_size=1)
    assert list(s) == [[2, 3], [4, 5]]


def test_validation():
    with pytest.raises(ValueError, match="no samples left"):
        PretrainingSampler(4, 4, 1, 0, 1)
    with pytest.raises(ValueError, match="smaller than data size"):
        PretrainingSampler(4, 0, 1, 2, 2)


def test_ranks_split_each_global_batch(world):
    rank, world_size = world
    sampler = PretrainingSampler(total_samples=24, consumed_samples=0, micro_batch_size=3)
    local = list(sampler)
    everyone = [None] * world_size
    dist.all_gather_object(everyone, local)
    for step in range(len(local)):
        seen = sorted(i for r in range(world_size) for i in everyone[r][step])
        start = step * 3 * world_size
        assert seen == list(range(start, start + 3 * world_size))
