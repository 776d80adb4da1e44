"""Split parameters into optimizer groups: decayed, not decayed, and expert groups.

Expert parameters must live in their own groups so that the ZeRO optimizer can
reduce and partition them over the expert data-parallel group instead of the
whole data-parallel world.
"""
import torch


def is_moe_param(param):
    return getattr(param, "allreduce", True) is False


def _no_decay(name, param):
    return param.dim() == 1 or name.endswith(".bias")


def get_param_groups(model, weight_decay, extra_groups=[]):
    """Return ``extra_groups`` followed by the model's parameter groups."""
    buckets = {}
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        decay = 0.0 if _no_decay(name, param) else weight_decay
        key = (is_moe_param(param), decay)
        buckets.setdefault(key, []).append(param)
    for (moe, decay), params in sorted(buckets.items()):
        group = {"params": params, "weight_decay": decay}
        if moe:
            group["moe"] = True
            group["name"] = "moe_decay" if decay else "moe_no_decay"
        extra_groups.append(group)
    return extra_groups


def build_optimizer(model, lr=1e-3, weight_decay=0.01, extra_groups=None):
    if extra_groups is None:
        groups = get_param_groups(model, weight_decay)
    else:
        groups = get_param_groups(model, weight_decay, extra_groups)
    return torch.optim.AdamW(groups, lr=lr)
