"""Selective activation recomputation for transformer blocks."""
