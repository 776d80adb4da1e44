"""Batch-size bookkeeping for data-parallel training with gradient accumulation."""
