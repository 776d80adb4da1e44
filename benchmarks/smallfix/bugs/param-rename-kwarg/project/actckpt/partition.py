"""Split a (replicated) activation into equal flat slices, one per model-parallel rank."""
import torch
import torch.distributed as dist


def get_partition_size(numel, mp_size):
    return (numel + mp_size - 1) // mp_size


def partition_activation(tensor, mp_size, mp_rank):
    """This rank's slice of ``tensor`` flattened and zero-padded to a multiple of ``mp_size``."""
    flat = tensor.detach().reshape(-1)
    size = get_partition_size(flat.numel(), mp_size)
    padded = flat.new_zeros(size * mp_size)
    padded[:flat.numel()].copy_(flat)
    return padded.narrow(0, mp_rank * size, size).clone()


def gather_partitioned_activation(part, shape, group=None):
    """Inverse of :func:`partition_activation`: all-gather the slices and restore ``shape``."""
    mp_size = dist.get_world_size(group=group)
    chunks = [torch.empty_like(part) for _ in range(mp_size)]
    dist.all_gather(chunks, part.contiguous(), group=group)
    numel = 1
    for dim in shape:
        numel *= dim
    return torch.cat(chunks)[:numel].view(shape)
