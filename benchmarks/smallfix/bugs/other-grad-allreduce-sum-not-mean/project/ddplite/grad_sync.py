"""Data-parallel gradient synchronisation without DDP hooks, in the style of
Megatron-LM's ``allreduce_gradients``: after backward, gradients of the same
dtype are flattened into one buffer per dtype, all-reduced in one call, and
copied back. The result on every rank must equal the gradient of the loss
averaged over the global batch (each rank's loss is a mean over its micro-batch).
"""
from collections import OrderedDict

import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


def broadcast_params(model, src=0, group=None):
    """Start from identical weights on every rank."""
    with torch.no_grad():
        for p in model.parameters():
            dist.broadcast(p, src=src, group=group)


def allreduce_gradients(model, group=None):
    world_size = dist.get_world_size(group)
    buckets = OrderedDict()
    for p in model.parameters():
        if p.requires_grad and p.grad is not None:
            buckets.setdefault(p.grad.dtype, []).append(p)
    for params in buckets.values():
        grads = [p.grad.data for p in params]
        coalesced = _flatten_dense_tensors(grads)
        dist.all_reduce(coalesced, group=group)
        for grad, synced in zip(grads, _unflatten_dense_tensors(coalesced, grads)):
            grad.copy_(synced)
    return world_size
