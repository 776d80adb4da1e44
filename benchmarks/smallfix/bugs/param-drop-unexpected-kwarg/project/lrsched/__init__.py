from lrsched.schedules import WarmupLR, WarmupDecayLR
from lrsched.factory import build_lr_scheduler

__all__ = ["WarmupLR", "WarmupDecayLR", "build_lr_scheduler"]
