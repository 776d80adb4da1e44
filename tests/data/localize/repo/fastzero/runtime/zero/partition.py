"""ZeRO stage 1/2: flat fp32 master partitions and gradient reduction."""
import torch
import torch.distributed as dist

from fastzero.comm import wrappers as comm
from fastzero.utils.logging import log_dist


def flatten(tensors):
    return torch.cat([t.contiguous().view(-1) for t in tensors])


class FlatPartitioner:
    """Splits a flat buffer into `world_size` equal partitions, padding the tail."""

    def partition(self, flat, rank, world_size):
        numel = flat.numel()
        part = (numel + world_size - 1) // world_size
        padded = torch.zeros(part * world_size, dtype=flat.dtype)
        padded[:numel].copy_(flat)
        return list(padded.split(part))[rank]

    def partition_sizes(self, numel, world_size):
        base = numel // world_size
        return [base] * world_size


class ZeroOptimizer:
    def __init__(self, params, lr=1e-3, stage=1, group=None):
        self.params = [p for p in params]
        self.lr = lr
        self.stage = stage
        self.group = group
        self.world_size = comm.get_world_size(group)
        self.rank = dist.get_rank(group) if dist.is_initialized() else 0
        self.partitioner = FlatPartitioner()
        flat = flatten([p.detach().float() for p in self.params])
        self.numel = flat.numel()
        self.sizes = self.partitioner.partition_sizes(self.numel, self.world_size)
        self.fp32_partition = self.partitioner.partition(flat, self.rank, self.world_size).clone()
        log_dist(f"ZeRO stage {stage}: {self.numel} params, partition {self.fp32_partition.numel()}",
                 ranks=[-1])

    def reduce_gradients(self):
        for p in self.params:
            p.grad.data.div_(self.world_size)
            if self.world_size > 1:
                comm.all_reduce(p.grad, group=self.group)

    def _grad_partition(self):
        flat = flatten([p.grad.float() for p in self.params if p.grad is not None])
        start = sum(self.sizes[:self.rank])
        return flat[start:start + self.sizes[self.rank]]

    def step(self):
        self.reduce_gradients()
        grad_partition = self._grad_partition()
        self.fp32_partition.add_(grad_partition, alpha=-self.lr)
        self._all_gather_params()

    def _all_gather_params(self):
        part = self.fp32_partition.numel()
        output = torch.empty(part * self.world_size, dtype=self.fp32_partition.dtype)
        if self.world_size > 1:
            comm.all_gather_flat(output, self.fp32_partition, group=self.group)
        else:
            output.copy_(self.fp32_partition)
        offset = 0
        for p in self.params:
            n = p.numel()
            p.data.copy_(output[offset:offset + n].view_as(p))
            offset += n

    def zero_grad(self):
        for p in self.params:
            p.grad = None
