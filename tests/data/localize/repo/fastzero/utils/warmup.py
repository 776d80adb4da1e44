"""Warm-up length of the learning-rate schedule, and score normalisation for logging."""
import warnings

import torch.nn.functional as F


def warmup_steps(total_steps, warmup_ratio=None, warmup_fraction=None):
    if warmup_fraction is not None:
        warnings.warn("`warmup_fraction` is deprecated and will be removed in fastzero 0.6; "
                      "use `warmup_ratio` instead", FutureWarning, stacklevel=2)
        warmup_ratio = warmup_fraction
    return int(total_steps * warmup_ratio)


def schedule_plan(total_steps):
    warmup = warmup_steps(total_steps, warmup_fraction=0.1)
    return {"warmup": warmup, "decay": total_steps - warmup}


def normalized_scores(scores):
    return F.softmax(scores)
