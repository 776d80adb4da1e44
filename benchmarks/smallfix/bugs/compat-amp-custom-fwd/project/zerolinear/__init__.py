"""A Linear layer whose autograd function does not keep references to gathered ZeRO-3 weights."""
