"""Reduce-scatter a flat gradient buffer so that each rank ends up with its averaged shard."""
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors


class GradientPartitioner:
    def __init__(self, params, group=None):
        self.params = [p for p in params if p.requires_grad]
        self.group = group
        self.world_size = dist.get_world_size(group=group)
        self.rank = dist.get_rank(group=group)
        self.numel = sum(p.numel() for p in self.params)
        self.shard_numel = (self.numel + self.world_size - 1) // self.world_size

    def shard_range(self):
        start = min(self.rank * self.shard_numel, self.numel)
        return start, min(start + self.shard_numel, self.numel)

    def _flat_padded_grads(self):
        grads = [p.grad if p.grad is not None else torch.zeros_like(p) for p in self.params]
        flat = _flatten_dense_tensors(grads)
        padded = flat.new_zeros(self.shard_numel * self.world_size)
        padded[: self.numel].copy_(flat)
        return padded

    @torch.no_grad()
    def reduce_scatter_gradients(self):
        """Return this rank's shard of the gradients averaged over the group."""
        padded = self._flat_padded_grads()
        if self.world_size == 1:
            return padded
        padded.div_(self.world_size)
        shard = padded.new_empty(self.shard_numel)
        dist.reduce_scatter_tensor(shard, padded, group=self.group)
        start, end = self.shard_range()
        return shard[: end - start]
