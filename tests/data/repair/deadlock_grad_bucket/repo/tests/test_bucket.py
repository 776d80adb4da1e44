import torch
import torch.distributed as dist

from zerobucket import GradBucket, flush_bucket


def test_flush_averages_full_buckets(dist_env):
    rank, world_size = dist_env
    bucket = GradBucket(4)
    bucket.add(torch.full((2,), float(rank + 1)))
    bucket.add(torch.full((2,), 10.0 * (rank + 1)))
    flat = flush_bucket(bucket)
    mean = sum(range(1, world_size + 1)) / world_size
    assert torch.allclose(flat, torch.tensor([mean, mean, 10 * mean, 10 * mean]))


def test_flush_when_only_rank0_has_grads(dist_env):
    # Rank 0 routed tokens to this expert, the other ranks did not: their bucket stays empty,
    # but they still take part in the all-reduce with zeros.
    rank, world_size = dist_env
    bucket = GradBucket(4)
    if rank == 0:
        bucket.add(torch.ones(2) * world_size)
        bucket.add(torch.full((2,), 3.0 * world_size))
    flat = flush_bucket(bucket)
    dist.barrier()  # every rank leaves the step together
    assert torch.allclose(flat, torch.tensor([1.0, 1.0, 3.0, 3.0]))
