"""Checkpoint saving for a data-parallel trainer."""
from ckpt.save import save_checkpoint

__all__ = ["save_checkpoint"]
