"""Clip gradients by their global norm, skipping parameters that are shared duplicates."""
import torch
from torch._six import inf


def _grads_for_norm(parameters):
    grads = []
    for p in parameters:
        if p.grad is None:
            continue
        if getattr(p, "shared", False) and not getattr(p, "is_first_copy", True):
            continue  # tied weights: count the gradient only once
        grads.append(p.grad.detach())
    return grads


def get_grad_norm(parameters, norm_type=2.0):
    grads = _grads_for_norm(parameters)
    if not grads:
        return 0.0
    norm_type = float(norm_type)
    if norm_type == inf:
        return max(float(g.abs().max()) for g in grads)
    total = sum(float(torch.norm(g, norm_type)) ** norm_type for g in grads)
    return total ** (1.0 / norm_type)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    parameters = list(parameters)
    total_norm = get_grad_norm(parameters, norm_type)
    clip_coeff = max_norm / (total_norm + 1.0e-6)
    if clip_coeff < 1.0:
        for p in parameters:
            if p.grad is not None:
                p.grad.detach().mul_(clip_coeff)
    return total_norm
