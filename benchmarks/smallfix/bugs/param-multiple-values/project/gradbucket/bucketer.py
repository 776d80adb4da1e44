"""Group gradients into buckets of at most ``bucket_cap_numel`` elements and reduce each bucket.

Parameters are visited in reverse registration order, roughly the order in
which their gradients become ready during backward.
"""
import functools

import torch

from gradbucket.comm import all_reduce_coalesced


class GradBucketer:
    def __init__(self, params, bucket_cap_numel=1 << 20, group=None, average=True):
        self.params = [p for p in params if p.requires_grad]
        self.bucket_cap_numel = bucket_cap_numel
        self.group = group
        self.reduce_fn = functools.partial(all_reduce_coalesced, group=group, average=average)
        self.bucket = []
        self.bucket_numel = 0
        self.buckets_reduced = 0

    def assign_buckets(self):
        """Parameter indices per bucket, for logging and tests."""
        buckets, current, numel = [], [], 0
        for idx in reversed(range(len(self.params))):
            n = self.params[idx].numel()
            if current and numel + n > self.bucket_cap_numel:
                buckets.append(current)
                current, numel = [], 0
            current.append(idx)
            numel += n
        if current:
            buckets.append(current)
        return buckets

    def _flush(self):
        if not self.bucket:
            return
        self.reduce_fn(self.bucket, self.group)
        self.buckets_reduced += 1
        self.bucket, self.bucket_numel = [], 0

    @torch.no_grad()
    def reduce_gradients(self):
        for param in reversed(self.params):
            if param.grad is None:
                param.grad = torch.zeros_like(param)
            n = param.numel()
            if self.bucket and self.bucket_numel + n > self.bucket_cap_numel:
                self._flush()
            self.bucket.append(param.grad)
            self.bucket_numel += n
        self._flush()
