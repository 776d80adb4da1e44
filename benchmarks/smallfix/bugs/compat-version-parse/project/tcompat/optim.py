"""Build AdamW with the fastest implementation the installed torch supports."""
import torch

from tcompat.version import torch_version_at_least


def adamw_impl_kwargs(params_on_cuda):
    if params_on_cuda and torch_version_at_least("2.0"):
        return {"fused": True}
    if torch_version_at_least("1.12"):
        return {"foreach": params_on_cuda}
    return {}


def build_adamw(params, lr=1e-3, weight_decay=0.01):
    params = list(params)
    on_cuda = all(p.is_cuda for p in params)
    return torch.optim.AdamW(params, lr=lr, weight_decay=weight_decay, **adamw_impl_kwargs(on_cuda))
