"""Build the LR scheduler named in the ``scheduler`` section of a training config."""
from lrsched.schedules import WarmupDecayLR, WarmupLR


def build_lr_scheduler(optimizer, config, total_num_steps=None):
    """``config`` is the training config dict, e.g.

    {"scheduler": {"type": "WarmupLR", "params": {"warmup_max_lr": 1e-3}}}
    """
    section = config.get("scheduler")
    if section is None:
        return None
    name = section.get("type")
    params = section.get("params", {})
    warmup = dict(
        warmup_min_lr=params.get("warmup_min_lr", 0.0),
        warmup_max_lr=params.get("warmup_max_lr", 0.001),
        warmup_num_steps=params.get("warmup_num_steps", 1000),
        warmup_type=params.get("warmup_type", "log"),
        last_batch_iteration=params.get("last_batch_iteration", -1),
    )
    total = params.get("total_num_steps", total_num_steps)
    if name == "WarmupDecayLR":
        if total is None:
            raise ValueError("WarmupDecayLR needs total_num_steps")
        return WarmupDecayLR(optimizer, total_num_steps=total, **warmup)
    if name == "WarmupLR":
        return WarmupLR(optimizer, total_num_steps=total, **warmup)
    raise ValueError("unknown scheduler type %r" % (name,))
