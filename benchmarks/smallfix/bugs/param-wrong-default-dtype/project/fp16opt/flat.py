"""Flat master copies of model parameters."""
import torch
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


def create_flat_master(params, dtype=torch.float16):
    """One flat, trainable master tensor holding a copy of ``params`` (fp32 for mixed precision)."""
    flat = _flatten_dense_tensors([p.detach().to(dtype) for p in params])
    return torch.nn.Parameter(flat.clone())


def flat_grads(params, dtype):
    grads = [p.grad if p.grad is not None else torch.zeros_like(p) for p in params]
    return _flatten_dense_tensors([g.to(dtype) for g in grads])


def copy_master_to_model(master, params):
    for p, new in zip(params, _unflatten_dense_tensors(master.detach(), params)):
        p.data.copy_(new)
