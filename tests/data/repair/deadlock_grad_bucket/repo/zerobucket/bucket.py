"""A gradient bucket.

Backward hooks add gradients to the bucket as they become ready; `flush_bucket` packs them
into the flat buffer and averages the buffer over the data-parallel group. Every rank must
take part in the all-reduce of every bucket, also a rank whose bucket received no gradient
in this step (its contribution is zeros), or the other ranks wait for it forever.
"""
import torch
import torch.distributed as dist


class GradBucket:
    def __init__(self, numel, dtype=torch.float32):
        self.flat = torch.zeros(numel, dtype=dtype)
        self.pending = None  # the grads added since the last flush, in order

    def add(self, grad):
        if self.pending is None:
            self.pending = []
        self.pending.append(grad)

    def reset(self):
        self.flat.zero_()
        self.pending = None


def flush_bucket(bucket, group=None):
    """Pack the pending grads into the flat buffer and average it over ``group``."""
    offset = 0
    for grad in bucket.pending:
        bucket.flat[offset:offset + grad.numel()].copy_(grad.reshape(-1))
        offset += grad.numel()
    dist.all_reduce(bucket.flat, group=group)
    bucket.flat.div_(dist.get_world_size(group=group))
    return bucket.flat
