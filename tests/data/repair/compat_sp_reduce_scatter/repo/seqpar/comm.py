"""Sequence parallelism splits the activations of the layer norms and dropouts along the
sequence (first) dimension over the tensor-parallel group. Entering a tensor-parallel region
all-gathers them; leaving it reduce-scatters the partial sums back into sequence shards.
"""
import torch
import torch.distributed as dist


def gather_along_first_dim(input_, group=None):
    """Concatenate the sequence shards of every rank along the first dimension."""
    world_size = dist.get_world_size(group=group)
    if world_size == 1:
        return input_
    parts = [torch.empty_like(input_) for _ in range(world_size)]
    dist.all_gather(parts, input_.contiguous(), group=group)
    return torch.cat(parts, dim=0)


def reduce_scatter_along_first_dim(input_, group=None):
    """Sum ``input_`` over the group and keep this rank's slice of the first dimension."""
    world_size = dist.get_world_size(group=group)
    if world_size == 1:
        return input_
    assert input_.shape[0] % world_size == 0, "the sequence length must divide by the group size"
    output = input_.new_empty((input_.shape[0] // world_size,) + tuple(input_.shape[1:]))
    dist.reduce_scatter_tensor(output, input_.contiguous(), group=group)
    return output
