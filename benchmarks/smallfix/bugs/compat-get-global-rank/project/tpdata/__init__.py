"""Feed the same batch to every rank of a tensor-parallel group."""
