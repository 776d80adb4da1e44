"""Collectives for meshtrain's process groups (thin wrappers over torch.distributed)."""
