"""Sharded SGD with momentum over a flat copy of the model parameters."""
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors

from zeroshard.partition import get_shard_range, padded_shard_numel


class ShardedSGD:
    def __init__(self, params, lr=0.1, momentum=0.0, group=None):
        self.params = [p for p in params if p.requires_grad]
        self.lr = lr
        self.momentum = momentum
        self.group = group
        self.world_size = dist.get_world_size(group=group)
        self.rank = dist.get_rank(group=group)
        flat = _flatten_dense_tensors([p.detach() for p in self.params])
        self.numel = flat.numel()
        if self.world_size == 1:
            self.start, self.end = 0, self.numel
        else:
            self.start, self.end = get_shard_range(self.numel, self.world_size, self.rank)
        # fp32 master copy and optimizer state only for the local shard
        self.master = flat[self.start:self.end].clone().float()
        self.momentum_buffer = torch.zeros_like(self.master)

    def _averaged_grad_shard(self):
        grads = [p.grad if p.grad is not None else torch.zeros_like(p) for p in self.params]
        flat = _flatten_dense_tensors(grads).float()
        if self.world_size > 1:
            dist.all_reduce(flat, group=self.group)
            flat.div_(self.world_size)
        return flat[self.start:self.end]

    def _all_gather_params(self):
        shard_numel = padded_shard_numel(self.numel, self.world_size)
        local = torch.zeros(shard_numel)
        local[: self.end - self.start].copy_(self.master)
        if self.world_size > 1:
            chunks = [torch.empty(shard_numel) for _ in range(self.world_size)]
            dist.all_gather(chunks, local, group=self.group)
            full = torch.cat(chunks)[: self.numel]
        else:
            full = local[: self.numel]
        for p, new in zip(self.params, _unflatten_dense_tensors(full, self.params)):
            p.data.copy_(new.to(p.dtype))

    @torch.no_grad()
    def step(self):
        grad = self._averaged_grad_shard()
        if self.momentum:
            self.momentum_buffer.mul_(self.momentum).add_(grad)
            grad = self.momentum_buffer
        self.master.add_(grad, alpha=-self.lr)
        self._all_gather_params()

    def zero_grad(self):
        for p in self.params:
            p.grad = None
