"""Gradient clipping for one pipeline stage.

Every stage holds a slice of the model's layers. The global gradient norm is the square
root of the sum, over the stages, of each stage's squared local norm: the stages add
theirs with one all-reduce over the pipeline group.
"""
import math

import torch
import torch.distributed as dist


def local_sq_norm(params):
    """The sum of the squared L2 norms of the gradients of ``params`` on this stage."""
    total = torch.zeros((), dtype=torch.float32)
    for p in params:
        grad = p.grad.detach().float()
        total += grad.pow(2).sum()
    return total


def clip_grad_norm_(params, max_norm, group=None):
    """Scale the gradients in place so that their global norm is at most ``max_norm``.

    Returns the global norm before clipping.
    """
    params = list(params)
    sq_norm = local_sq_norm(params)
    if group is not None and dist.is_initialized():
        dist.all_reduce(sq_norm, group=group)
    total_norm = math.sqrt(sq_norm.item())
    coef = max_norm / (total_norm + 1e-6)
    if coef < 1.0:
        for p in params:
            if p.grad is not None:
                p.grad.detach().mul_(coef)
    return total_norm
