"""Bucketed gradient reduction in the style of ZeRO stage 2.

Gradients are copied into flat, contiguous buckets of at most
``bucket_size`` elements, each bucket is averaged over the data-parallel
group with a single all-reduce, and the averaged values are copied back
into the parameters' ``.grad`` tensors.
"""
import torch
import torch.distributed as dist


class GradientReducer:
    def __init__(self, params, bucket_size=2 ** 20, group=None):
        self.params = [p for p in params]
        self.bucket_size = bucket_size
        self.group = group
        self.reductions = 0

    def _world_size(self):
        if dist.is_available() and dist.is_initialized():
            return dist.get_world_size(self.group)
        return 1

    def build_buckets(self):
        """Split the parameters' gradients into buckets, in parameter order."""
        buckets, current, current_numel = [], [], 0
        for p in self.params:
            numel = p.grad.numel()
            if current and current_numel + numel > self.bucket_size:
                buckets.append(current)
                current, current_numel = [], 0
            current.append(p)
            current_numel += numel
        if current:
            buckets.append(current)
        return buckets

    def _reduce_bucket(self, bucket):
        flat = torch.cat([p.grad.reshape(-1) for p in bucket])
        world_size = self._world_size()
        if world_size > 1:
            dist.all_reduce(flat, group=self.group)
            flat.div_(world_size)
        self.reductions += 1
        offset = 0
        for p in bucket:
            n = p.grad.numel()
            p.grad.copy_(flat[offset:offset + n].view_as(p.grad))
            offset += n

    def reduce_gradients(self):
        """Average every gradient over the group; call after backward()."""
        for bucket in self.build_buckets():
            self._reduce_bucket(bucket)
