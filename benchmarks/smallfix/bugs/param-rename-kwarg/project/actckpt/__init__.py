"""Activation checkpointing with inputs partitioned over model-parallel ranks."""
from actckpt.checkpoint import checkpoint

__all__ = ["checkpoint"]
