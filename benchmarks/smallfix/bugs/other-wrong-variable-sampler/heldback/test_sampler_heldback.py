import torch.distributed as dist

from msampler import PretrainingSampler


def test_explicit_rank_ranges():
    got = [list(PretrainingSampler(16, 0, 2, data_parallel_rank=r, data_parallel_size=4))
           for r in range(4)]
    assert got[3] == [[6, 7], [14, 15]]
    assert got[1] == [[2, 3], [10, 11]]


def test_resume_and_partial_last_batch(world):
    rank, world_size = world
    s = PretrainingSampler(total_samples=13, consumed_samples=4, micro_batch_size=4,
                           drop_last=False)
    local = list(s)
    everyone = [None] * world_size
    dist.all_gather_object(everyone, local)
    flat = sorted(i for batches in everyone for b in batches for i in b)
    assert flat == list(range(4, 13))
