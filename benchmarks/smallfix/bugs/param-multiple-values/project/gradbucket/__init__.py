"""Bucketed data-parallel gradient averaging."""
