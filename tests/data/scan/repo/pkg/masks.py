# Annotated fixture for smallfix scan: a line that must be flagged ends with
# `# scan: TEMPLATE-ID` (several ids separated by commas); no other line may be.
from typing import Optional

import torch
from torch import Tensor


def apply_mask(x: Tensor, mask: Optional[Tensor] = None) -> Tensor:
    if mask == None:  # scan: guard.eq-none-is
        return x
    if mask:  # scan: guard.truthiness-is-not-none
        x = x * mask
    return x


def scale(x, factor=None, bias: Optional[torch.Tensor] = None):
    if None != factor:  # scan: guard.ne-none-is-not
        x = x * factor
    if bias is not None:
        x = x + bias
    return x


def message():
    return "x == None is written in a string, not compared"
