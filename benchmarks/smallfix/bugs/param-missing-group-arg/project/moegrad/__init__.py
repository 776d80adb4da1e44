"""Gradient synchronisation for mixture-of-experts models with expert parallelism."""
