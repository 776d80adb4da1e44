"""Collectives used by parameter partitioning."""
import torch.distributed as dist


def allgather_into_flat(output, input_, group=None):
    """Gather equal-sized ``input_`` shards of all ranks into the flat ``output`` buffer."""
    if dist.get_world_size(group=group) == 1:
        output.copy_(input_)
        return output
    dist.all_gather_into_tensor(output, input_, group=group)
    return output
