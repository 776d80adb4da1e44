# Simulates torch 1.12, which has no torch.distributed.all_gather_into_tensor (corpus logs only).
import os
import faulthandler
import torch.distributed as _dist
if hasattr(_dist, "all_gather_into_tensor"):
    del _dist.all_gather_into_tensor
