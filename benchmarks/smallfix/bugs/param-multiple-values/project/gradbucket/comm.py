import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


def all_reduce_coalesced(tensors, group=None, average=True):
    """All-reduce a list of tensors as one flat buffer, in place."""
    if not tensors:
        return
    flat = _flatten_dense_tensors(tensors)
    dist.all_reduce(flat, group=group)
    if average:
        flat.div_(dist.get_world_size(group=group))
    for tensor, synced in zip(tensors, _unflatten_dense_tensors(flat, tensors)):
        tensor.copy_(synced)
