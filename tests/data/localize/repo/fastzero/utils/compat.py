"""Helpers that paper over differences between torch releases."""
import torch
from torch._six import inf

TORCH_MAJOR = int(torch.__version__.split(".")[0])
TORCH_MINOR = int(torch.__version__.split(".")[1])


def is_inf_or_nan(value):
    return value in (inf, -inf) or value != value


def clip_coef(total_norm, max_norm):
    if is_inf_or_nan(total_norm):
        return 1.0
    return min(1.0, max_norm / (total_norm + 1e-6))
