import torch.distributed as dist


def all_reduce(tensor, group=None, *, async_op=False):
    return dist.all_reduce(tensor, group=group, async_op=async_op)


def broadcast(tensor, src, /, group=None, **kwargs):
    return dist.broadcast(tensor, src, group=group, **kwargs)
