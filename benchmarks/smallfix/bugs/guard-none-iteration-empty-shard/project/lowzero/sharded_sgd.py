"""ZeRO stage 1 style optimizer that shards whole parameters over data-parallel ranks.

Each parameter is owned by one rank (greedy, largest first, onto the least
loaded rank). Gradients are averaged over the group; every rank updates only
the parameters it owns and keeps momentum for those only; then each owner
broadcasts its updated parameters to the other ranks.
"""
import torch
import torch.distributed as dist


def partition_params(params, world_size):
    """Map rank -> list of owned params (ranks that own nothing are absent)."""
    loads = [0] * world_size
    partitions = {}
    for p in sorted(params, key=lambda t: t.numel(), reverse=True):
        rank = loads.index(min(loads))
        loads[rank] += p.numel()
        partitions.setdefault(rank, []).append(p)
    return partitions


class ShardedSGD:
    def __init__(self, params, lr, momentum=0.0, group=None):
        self.params = list(params)
        self.lr, self.momentum, self.group = lr, momentum, group
        self.world_size = dist.get_world_size(group)
        self.rank = dist.get_rank(group)
        self.partitions = partition_params(self.params, self.world_size)
        self.local_params = self.partitions.get(self.rank)
        self.momentum_buffers = {}

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for p in self.params:
            if p.grad is None:
                p.grad = torch.zeros_like(p)
            dist.all_reduce(p.grad, group=self.group)
            p.grad.div_(self.world_size)
        for p in self.local_params:
            d_p = p.grad
            if self.momentum:
                buf = self.momentum_buffers.get(p)
                buf = d_p.clone() if buf is None else buf.mul_(self.momentum).add_(d_p)
                self.momentum_buffers[p] = buf
                d_p = buf
            p.add_(d_p, alpha=-self.lr)
        for owner in sorted(self.partitions):
            for p in self.partitions[owner]:
                dist.broadcast(p, src=owner, group=self.group)
