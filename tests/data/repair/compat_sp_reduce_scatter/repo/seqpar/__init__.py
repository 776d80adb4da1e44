"""Sequence-parallel communication helpers (Megatron style) over torch.distributed."""
from seqpar.comm import gather_along_first_dim, reduce_scatter_along_first_dim

__all__ = ["gather_along_first_dim", "reduce_scatter_along_first_dim"]
