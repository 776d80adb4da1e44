"""Gradient norm utilities for mixed-precision training."""
