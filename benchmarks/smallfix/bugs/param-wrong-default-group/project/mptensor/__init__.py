"""Tensor (intra-layer) model parallelism: process groups, mappings and layers."""
